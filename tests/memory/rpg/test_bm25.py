from collections import Counter

from memory.rpg.bm25 import BM25, term_counts, tokenize


def test_tokenize_splits_identifiers_and_keeps_whole_names():
    assert tokenize("parseHTTPHeader(self, raw_value)") == ["parsehttpheader", "parse", "http", "header",
                                                           "raw_value", "raw", "value"]
    assert "the" not in tokenize("the value of x")


def test_term_counts_equal_counting_the_tokens():
    text = "def parseHTTPHeader(raw_value):\n    raw = raw_value or parse(raw)  # the raw_value is parsed 2 times\n"
    assert term_counts(text) == Counter(tokenize(text)) and term_counts(text)["raw"] == 5
    assert term_counts("") == Counter()


def test_ranking_prefers_rare_matching_terms_and_supports_removal():
    index = BM25()
    index.add("a", "def apply_discount(total, percent): return total * percent")
    index.add("b", "def add_tax(total, rate): return total * rate")
    index.add("c", "class Cart: holds items")
    assert index.top("discount percent", 2)[0][0] == "a"
    assert set(index.scores("total")) == {"a", "b"}
    assert list(index.scores("total", allowed={"b"})) == ["b"]
    index.remove("a")
    assert "a" not in index.scores("discount") and len(index) == 2
