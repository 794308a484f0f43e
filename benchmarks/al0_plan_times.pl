% Times the book's AL0 program (Bratko, figures 24.6/24.7/24.10) choosing a
% plan -- rule, advice and forcing tree, its predicate strategy/2 -- on every
% position of an EPD file, in CPU time, and prints one line per position:
%     <index> <milliseconds> <first move of the tree, or none>
%
%     swipl benchmarks/al0_plan_times.pl -- BOOK.pl POSITIONS.epd
%
% (the -- keeps swipl from loading BOOK.pl itself as a script).
%
% The book's program is consulted as published; nothing of it is changed.
% Its own output ("Trying squeeze", ...) goes to a null stream while it
% plans. Positions are White K+R vs Black K with White to move.

:- initialization(main, main).

% Load what this driver uses before the book's program: its directive
% unknown(_, fail) stops autoloading from working afterwards.
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(readutil)).

main :-
    current_prolog_flag(argv, Argv),
    append(_, [Book, Epd], Argv),
    load_files(Book, [silent(true)]),
    read_file_to_string(Epd, Text, []),
    split_string(Text, "\n", " \r\t", Lines),
    exclude(==(""), Lines, Records),
    open_null_stream(Null),
    forall(nth1(Index, Records, Record), time_one(Index, Record, Null)).

time_one(Index, Record, Null) :-
    split_string(Record, " ", "", [Placement | _]),
    fen_position(Placement, Pos),
    current_output(Out),
    set_output(Null),
    statistics(cputime, T0),
    ( strategy(Pos, Tree) -> Found = Tree ; Found = none ),
    statistics(cputime, T1),
    set_output(Out),
    Ms is (T1 - T0) * 1000,
    first_move(Found, Move),
    format("~d ~6f ~w~n", [Index, Ms, Move]).

first_move(none, none) :- !.
first_move(Tree, Move) :- Tree = '..'(Move, _), !.
first_move(_, none).

% The book's position term: w..Wx:Wy..Rx:Ry..Bx:By..0 (x = file, y = rank, 1..8).
fen_position(Placement, '..'(w, '..'(':'(Wx, Wy), '..'(':'(Rx, Ry), '..'(':'(Bx, By), 0))))) :-
    split_string(Placement, "/", "", Ranks),
    findall(Piece-X-Y,
            ( nth1(Row, Ranks, RankText), Y is 9 - Row,
              string_chars(RankText, Chars), squares(Chars, 1, Pieces),
              member(Piece-X, Pieces) ),
            Found),
    memberchk('K'-Wx-Wy, Found),
    memberchk('R'-Rx-Ry, Found),
    memberchk(k-Bx-By, Found).

squares([], _, []).
squares([C | Cs], X, Pieces) :-
    (   char_type(C, digit(N))
    ->  X1 is X + N, squares(Cs, X1, Pieces)
    ;   X1 is X + 1, Pieces = [C-X | Rest], squares(Cs, X1, Rest)
    ).
