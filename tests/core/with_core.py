"""Run pytest with another build of the native core: ``python
tests/core/with_core.py PATH/_core….so PYTEST-ARGS…`` imports that file as
``al0.core._core`` before anything imports the core, then runs pytest
with the arguments. tests/core/test_core_sanitizers.py runs the core's
tests so on a build with AddressSanitizer and UndefinedBehaviorSanitizer."""

from __future__ import annotations

import importlib.util
import sys


def main(argv: list[str]) -> int:
    path, args = argv[0], argv[1:]
    spec = importlib.util.spec_from_file_location("al0.core._core", path)
    if spec is None or spec.loader is None:
        print(f"{path}: not an extension module", file=sys.stderr)
        return 2
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["al0.core._core"] = module
    import pytest

    return int(pytest.main(args))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
