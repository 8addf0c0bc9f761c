from textstats import average_word_length, most_common_word, word_count


def test_word_count_simple():
    assert word_count("a b c") == 3


def test_word_count_any_whitespace():
    assert word_count("one\ttwo\nthree  four") == 4


def test_average_word_length():
    assert average_word_length("ab abcd") == 3.0


def test_average_word_length_empty():
    assert average_word_length("") == 0.0


def test_most_common_word():
    assert most_common_word("the cat and the hat") == "the"
    assert most_common_word("") is None
