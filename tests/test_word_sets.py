"""project/word_sets.py: a text's whole words, the same answer as a whole-word search of the text."""
import random
import re

from trnready.project.unreferenced import _word_at
from trnready.project.word_sets import WordBloom, Words, is_word

# ASCII word and non-word characters, non-ASCII letters and digits (word characters), non-ASCII punctuation and
# spaces (not), a lone surrogate
ALPHABET = "ab_1 .-(\n\t'\"#é—·²ǅ٣\u00a0\u200bß\ud800"


def _random_texts(n: int, seed: int = 17):
    rnd = random.Random(seed)
    for _ in range(n):
        yield "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 14)))


def test_words_are_the_regex_words():
    for text in _random_texts(20000):
        assert Words(text)._set == {w.encode("utf-8", "surrogatepass") for w in re.findall(r"\w+", text)}, text


def test_a_word_is_in_the_set_exactly_when_the_text_holds_it_as_a_whole_word():
    rnd = random.Random(3)
    for text in _random_texts(5000):
        words = Words(text)
        candidates = set(re.findall(r"\w+", text)) | {"a", "ab", "b_1", "é", "ß", "ab1"}
        for name in candidates:
            assert is_word(name)
            assert (name in words) == _word_at(text, name, 0, len(text)), (text, name)
        k = rnd.randint(0, len(text))
        part = re.findall(r"\w+", text[k:])
        if part:
            assert (part[0] in words) == _word_at(text, part[0], 0, len(text))


def test_source_text():
    text = "from .x import load_model\n# load_model_v2 is slower\nmodel = load_model(path)  # café\nrun-demo\n"
    words = Words(text)
    assert "load_model" in words and "load_model_v2" in words and "café" in words
    assert "load" not in words and "model_v2" not in words and "caf" not in words
    assert not is_word("run-demo") and not is_word("")


def test_the_filter_never_drops_a_word():
    for text in _random_texts(3000, seed=5):
        words = Words(text)
        bloom = WordBloom(words._set)
        for w in re.findall(r"\w+", text):
            assert bloom.may(w)
    big = Words(" ".join(f"name{i}" for i in range(5000)))
    bloom = big.bloom()
    assert all(bloom.may(f"name{i}") for i in range(5000))
    # and drops most other words (one hash, 16 bits a word: about 6 % pass)
    assert sum(bloom.may(f"other{i}") for i in range(5000)) < 750


def test_the_filter_is_the_same_in_every_process():
    # a filter built under one hash seed answers as one built under another: the steps reading it stop at budgets,
    # and `hash()` of bytes changes with each interpreter (off-step's answers changed from one scan to the next)
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = ("from trnready.project.word_sets import Words\n"
            "b = Words('alpha beta gamma delta ' * 3 + ' '.join(f'w{i}' for i in range(300))).bloom()\n"
            "print(''.join('1' if b.may(f'n{i}') else '0' for i in range(400)))\n")
    outs = set()
    repo = str(Path(__file__).resolve().parent.parent)
    for seed in ("1", "2", "3"):
        env = dict(os.environ, PYTHONHASHSEED=seed, PYTHONPATH=repo + os.pathsep + os.environ.get("PYTHONPATH", ""))
        outs.add(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout)
    assert len(outs) == 1
