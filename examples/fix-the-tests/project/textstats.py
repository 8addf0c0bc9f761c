"""Tiny text statistics: the code under repair in the fix-the-tests example."""

import os


def word_count(text: str) -> int:
    """Number of whitespace-separated words."""
    return len([w for w in text.split(" ") if w])


def average_word_length(text: str) -> float:
    """Mean length of the words, 0.0 for empty text."""
    words = text.split()
    if not words:
        return 0.0
    return sum(len(w) for w in words) / len(text)


def most_common_word(text: str) -> str | None:
    """The most frequent lower-cased word (first seen wins a tie), None for empty text."""
    counts: dict[str, int] = {}
    for w in text.lower().split():
        counts[w] = counts.get(w, 0) + 1
    if not counts:
        return None
    return max(counts, key=lambda w: counts[w])
