"""The potential analysis: whether a progress measure can be forced lower
against every defence, over every position of an ending (``al0 progress``)."""
