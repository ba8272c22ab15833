"""Offline search: BM25 ranking over the bundled snapshot of short documents (prices, results, facts).

The snapshot `tools/data/snapshot.jsonl` holds dated documents written from public sources as of
early-to-mid 2025; it is a frozen snapshot, not live data, and every formatted result says so. This
module loads it, tokenises English and Chinese text and ranks documents with `rank_bm25.BM25Okapi`;
a query also searches the words `tools/data/synonyms.txt` lists as naming the same thing.
It does not build the LangChain tool or talk to any network: `tools.search` does the former.
"""

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rank_bm25 import BM25Okapi

from custom_react.prompts import message

SNAPSHOT_PATH = Path(__file__).parent / "data" / "snapshot.jsonl"
SYNONYMS_PATH = Path(__file__).parent / "data" / "synonyms.txt"

_YEAR = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
_CJK = "\u3400-\u4dbf\u4e00-\u9fff"  # CJK ideographs: Chinese text
_TOKEN = re.compile(f"[{_CJK}]+|[a-z0-9]+")
_HAS_CJK = re.compile(f"[{_CJK}]")
# English words too common in questions to help ranking (kept as text: one word per space).
_STOPWORD_TEXT = (
    "a an and are as at be by can did do does for from how i in is it me much of on or please "
    "show tell that the this to was were what when where which who whom why will with you"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True)
class SnapshotDocument:
    """One document of the snapshot; `date` is "YYYY-MM" or "YYYY-MM-DD", the time it describes."""

    id: str
    title: str
    content: str
    source: str
    date: str
    tags: tuple[str, ...]


def tokenize(text: str) -> list[str]:
    """Split English and Chinese text into search terms.

    English: lowercase, accents removed, words of letters and digits, a few stopwords dropped, and a
    light stemming ("cities" -> "city", "roses" -> "rose"). Chinese: each run of CJK characters gives
    its single characters and its bigrams ("玫瑰花" -> 玫, 瑰, 花, 玫瑰, 瑰花).

    Args:
        text: Any text; punctuation and symbols are ignored.

    Returns:
        The terms in order of appearance, duplicates kept (BM25 counts them).
    """
    folded = unicodedata.normalize("NFKD", text.lower())
    folded = "".join(character for character in folded if not unicodedata.combining(character))
    terms: list[str] = []
    for run in _TOKEN.findall(folded):
        if run[0].isascii():
            if run not in _STOPWORDS:
                terms.append(_stem(run))
        else:
            terms.extend(run)
            terms.extend(run[index : index + 2] for index in range(len(run) - 1))
    return terms


def has_chinese(text: str) -> bool:
    """Whether `text` holds a CJK ideograph (the tokenizer's Chinese runs)."""
    return _HAS_CJK.search(text) is not None


def load_synonyms(path: Path = SYNONYMS_PATH) -> tuple[tuple[str, ...], ...]:
    """Read groups of words that name the same thing: one group per line, `#` starts a comment."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(tuple(line.split()) for line in lines if line.strip() and not line.startswith("#"))


def with_synonyms(query: str, synonyms: tuple[tuple[str, ...], ...]) -> str:
    """`query` followed by the other words of each synonym group it holds a word of.

    >>> with_synonyms("玫瑰花进货价格", (("进货价", "批发价"),))
    '玫瑰花进货价格 批发价'
    """
    added = [
        word
        for group in synonyms
        if any(holds(query, word) for word in group)
        for word in group
        if not holds(query, word)
    ]
    return " ".join([query, *added])


def holds(text: str, word: str) -> bool:
    """Whether `text` holds `word`: anywhere for Chinese, as a whole word for words in letters.

    Chinese puts no spaces between words, so 进货价 is found inside 玫瑰花进货价格; a word in
    letters must stand alone (any case), so `rate` is not found in `separate`.
    """
    if not word.isascii():
        return word in text
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE) is not None


def load_snapshot(path: Path = SNAPSHOT_PATH) -> list[SnapshotDocument]:
    """Read the snapshot, one JSON object per line.

    Raises:
        ValueError: If a line is not valid JSON or lacks one of the fields of `SnapshotDocument`.
    """
    documents: list[SnapshotDocument] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            documents.append(
                SnapshotDocument(
                    id=record["id"],
                    title=record["title"],
                    content=record["content"],
                    source=record["source"],
                    date=record["date"],
                    tags=tuple(record["tags"]),
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise ValueError(f"{path}:{number}: not a valid snapshot document ({error})") from None
    return documents


class SnapshotIndex:
    """A BM25 index over snapshot documents (title, tags and content are indexed together)."""

    def __init__(
        self, documents: list[SnapshotDocument], synonyms: tuple[tuple[str, ...], ...] = ()
    ) -> None:
        """Index `documents`; a query also searches the synonyms of its words (`load_synonyms`).

        Raises ValueError if there are no documents.
        """
        if not documents:
            raise ValueError("the snapshot index needs at least one document")
        self.documents = documents
        self.synonyms = synonyms
        corpus = [tokenize(f"{doc.title} {' '.join(doc.tags)} {doc.content}") for doc in documents]
        self._bm25 = BM25Okapi(corpus)
        self._terms = [set(terms) for terms in corpus]
        # The date of the newest document ("YYYY-MM"): the snapshot knows nothing after it.
        self.last_date = max(document.date for document in documents)[:7]

    def years_after_snapshot(self, query: str) -> list[str]:
        """The years `query` names that are later than the newest document, in order."""
        return sorted({year for year in _YEAR.findall(query) if year > self.last_date[:4]})

    def search(self, query: str, k: int = 3) -> list[SnapshotDocument]:
        """Return up to `k` documents sharing at least one term with `query`, best first."""
        terms = tokenize(with_synonyms(query, self.synonyms))
        # Filter on shared terms, not on score: BM25Okapi gives a term found in exactly half of
        # a small corpus an IDF of 0, and that document still matches.
        matching = [index for index, known in enumerate(self._terms) if known.intersection(terms)]
        scores = self._bm25.get_scores(terms) if matching else []
        ranked = sorted(matching, key=lambda index: -scores[index])
        return [self.documents[index] for index in ranked[:k]]


def format_document(document: SnapshotDocument, language: str = "en") -> str:
    """Render one result as "[offline snapshot, 2025-03] Title: content (source: ...)".

    The label is in `language` (the message table's `search_result`): "[离线快照，2025-03] …" in Chinese.
    """
    return message(
        "search_result",
        language,
        date=document.date,
        title=document.title,
        content=document.content,
        source=document.source,
    )


@cache
def default_index() -> SnapshotIndex:
    """Load and index the bundled snapshot once per process."""
    return SnapshotIndex(load_snapshot(), load_synonyms())


def _stem(word: str) -> str:
    """Strip a plural ending from longer words: "cities" -> "city", "prices" -> "price"."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
