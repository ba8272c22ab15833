"""Offline search: the snapshot's contents, tokenisation, ranking of paraphrased questions, output format."""

import re

import pytest

from tools.search import make_search_tool
from tools.snapshot_search import (
    SnapshotDocument,
    SnapshotIndex,
    default_index,
    format_document,
    holds,
    load_snapshot,
    load_synonyms,
    tokenize,
    with_synonyms,
)

QUESTIONS = [
    ("How much does one rose cost wholesale in Kunming?", "rose-wholesale-kunming"),
    ("wholesale price of a single rose stem in China", "rose-wholesale-kunming"),
    ("What is the price of a rose flower at the wholesale market?", "rose-wholesale-kunming"),
    ("昆明斗南玫瑰批发多少钱一枝", "rose-wholesale-kunming-zh"),
    ("How much is a dozen roses in America for Valentine's Day", "roses-dozen-us"),
    (
        "how much do Chinese florists charge for one rose on Valentine's day",
        "rose-retail-china-valentines",
    ),
    ("情人节一枝玫瑰卖多少钱", "rose-retail-china-zh"),
    ("Who won the Australian Open men's final in 2025?", "ao-2025-men"),
    ("2025 Australian Open women's champion", "ao-2025-women"),
    ("Where was Jannik Sinner born?", "jannik-sinner"),
    ("Which town did Sinner grow up in?", "jannik-sinner"),
    ("2025年澳网男单冠军是谁", "ao-2025-men-zh"),
    ("How many dollars is an ounce of gold?", "gold-price-2025"),
    ("price of Brent oil per barrel", "brent-crude-2025"),
    ("cost of a dozen eggs in the United States", "eggs-us-2025"),
    ("How much does a Big Mac cost in the US?", "big-mac-us"),
    ("iPhone 16 starting price", "iphone-16-price"),
    ("How many yuan is one US dollar?", "usd-cny"),
    ("美元兑人民币汇率是多少", "usd-cny-zh"),
    ("euro to dollar exchange rate", "eur-usd"),
    ("how many yen for a dollar", "usd-jpy"),
    ("pound sterling to dollar rate", "gbp-usd"),
    ("Which city hosted the 2024 Olympics?", "olympics-2024-paris"),
    ("2024年巴黎奥运会中国拿了多少金牌", "olympics-2024-china-zh"),
    ("Who won the World Cup in 2022?", "world-cup-2022"),
    ("Super Bowl LIX score", "super-bowl-lix"),
    ("Who won Wimbledon in 2024?", "wimbledon-2024"),
    ("How tall is the Eiffel Tower?", "eiffel-tower"),
    ("height of the Burj Khalifa", "burj-khalifa"),
    ("How tall is Tokyo Skytree", "tokyo-skytree"),
    ("How long is the Great Wall of China?", "great-wall"),
    ("上海中心大厦有多高", "shanghai-tower-zh"),
    ("Who is the UK prime minister?", "uk-prime-minister"),
    ("Who is the current pope?", "pope-leo-xiv"),
    ("Who won the Nobel Prize in Physics in 2024?", "nobel-physics-2024"),
    ("谁发现了青蒿素", "tu-youyou-zh"),
]

REQUIRED_FACTS = [
    ("rose-wholesale-kunming", "about 1 yuan (CNY 1) per stem"),
    ("rose-retail-china-valentines", "about 15 yuan"),
    ("roses-dozen-us", "about $80"),
    ("usd-cny", "7.26"),
    ("ao-2025-men", "beating Alexander Zverev"),
    ("ao-2025-women", "beating world No. 1 Aryna Sabalenka"),
    ("jannik-sinner", "San Candido (Innichen)"),
    ("super-bowl-lix", "40-22"),
    ("eiffel-tower", "330 metres"),
    ("burj-khalifa", "828 metres"),
    ("tokyo-skytree", "634 metres"),
]


@pytest.mark.parametrize(("question", "document_id"), QUESTIONS)
def test_paraphrased_question_finds_its_document_in_top_three(
    question: str, document_id: str
) -> None:
    """A question worded differently from its document still ranks it in the top three."""
    assert document_id in [document.id for document in default_index().search(question, k=3)]


def test_snapshot_is_well_formed() -> None:
    """Every document has a unique id, a date, all fields and short content; some are Chinese."""
    documents = load_snapshot()
    assert len(documents) >= 60
    assert len({document.id for document in documents}) == len(documents)
    for document in documents:
        assert re.fullmatch(r"\d{4}-\d{2}(-\d{2})?", document.date), document.id
        assert document.title and document.content and document.source and document.tags
        assert len(document.content) <= 400, document.id  # short enough for a small model to copy
    assert sum(bool(re.search(r"[\u4e00-\u9fff]", document.content)) for document in documents) >= 5


@pytest.mark.parametrize(("document_id", "fact"), REQUIRED_FACTS)
def test_required_facts_are_stated_plainly(document_id: str, fact: str) -> None:
    """The facts the demos and questions rely on appear word for word."""
    documents = {document.id: document for document in load_snapshot()}
    assert fact in documents[document_id].content


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("Roses, prices & cities!", ["rose", "price", "city"]),
        ("What is the price of gold?", ["price", "gold"]),
        ("Krejčíková", ["krejcikova"]),
        ("iPhone 16", ["iphone", "16"]),
        ("玫瑰花", ["玫", "瑰", "花", "玫瑰", "瑰花"]),
        ("Sinner 辛纳 wins", ["sinner", "辛", "纳", "辛纳", "win"]),
        ("ＵＳＤ／ＣＮＹ", ["usd", "cny"]),
        ("?!", []),
    ],
)
def test_tokenize_english_and_chinese(text: str, terms: list[str]) -> None:
    """Words are lowercased, unaccented and singular, stop words dropped; Chinese gives 1-2 grams."""
    assert tokenize(text) == terms


def test_offline_tool_labels_every_result(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every offline result names the snapshot date and its source."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    observation = make_search_tool().invoke("rose wholesale price Kunming")
    lines = observation.splitlines()
    assert len(lines) == 3
    assert all(re.match(r"\[offline snapshot, \d{4}-\d{2}(-\d{2})?\] ", line) for line in lines)
    assert all("(source: " in line for line in lines)
    assert lines[0].startswith(
        "[offline snapshot, 2025-03] Wholesale price of a rose stem at Kunming Dounan flower market:"
    )


def test_offline_tool_truncates_and_limits_results(monkeypatch: pytest.MonkeyPatch) -> None:
    """`max_results` and `max_chars` bound the offline observation."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    assert len(make_search_tool(max_results=1).invoke("gold price").splitlines()) == 1
    observation = make_search_tool(max_chars=120).invoke("gold price")
    assert len(observation) <= 120 and re.search(r"…\[truncated \d+ characters\]$", observation)


def test_offline_tool_says_when_nothing_matches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A query that matches nothing says so and names the snapshot's date."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    observation = make_search_tool().invoke("qqqq zzzz")
    assert observation.startswith("No document in the offline snapshot (early 2025) matches")


def test_index_over_custom_documents() -> None:
    """An index over any documents ranks only the ones that match."""
    documents = [
        SnapshotDocument("a", "Apples", "Apples cost 2 dollars.", "test", "2025-01", ("fruit",)),
        SnapshotDocument(
            "b", "Bananas", "Bananas cost 1 dollar.", "test", "2025-01-15", ("fruit",)
        ),
    ]
    index = SnapshotIndex(documents)
    assert [document.id for document in index.search("banana price")] == ["b"]
    assert format_document(documents[1]) == (
        "[offline snapshot, 2025-01-15] Bananas: Bananas cost 1 dollar. (source: test)"
    )
    with pytest.raises(ValueError):
        SnapshotIndex([])


@pytest.mark.parametrize(
    ("query", "years"),
    [
        ("gold price end of March 2026", ["2026"]),
        ("2026年3月美元兑人民币汇率", ["2026"]),
        ("Australian Open 2027 and 2026 winners", ["2026", "2027"]),
        ("gold price March 2025", []),
        ("gold price in 2024 and 1999", []),
        ("part number 120265", []),
        ("gold price", []),
    ],
)
def test_years_after_the_newest_document(query: str, years: list[str]) -> None:
    """Only the years after the newest document's count; a year inside a longer number does not."""
    documents = [
        SnapshotDocument("a", "Gold", "Gold cost 3,100 dollars.", "test", "2025-03", ()),
        SnapshotDocument("b", "Silver", "Silver cost 34 dollars.", "test", "2024-06-30", ()),
    ]
    index = SnapshotIndex(documents)
    assert index.last_date == "2025-03"
    assert index.years_after_snapshot(query) == years


@pytest.mark.parametrize(
    ("query", "note"),
    [
        ("gold price end of March 2026", "No information for 2026 found in the offline snapshot"),
        ("2026年3月美元兑人民币汇率", "离线快照中没有找到 2026 年的信息"),
        ("2026 and 2027 gold price", "No information for 2026 or 2027 found"),
        ("2027年和2026年的金价", "离线快照中没有找到 2026、2027 年的信息"),
    ],
)
def test_offline_tool_says_a_later_year_is_not_in_the_snapshot(
    query: str, note: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A query about a year after the snapshot gets the earlier results under a note saying so."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    first, *results = make_search_tool().invoke(query).splitlines()
    assert first.startswith(note) and default_index().last_date in first
    # Called outside a run, the tool labels its results in the query's language.
    label = "[离线快照，20" if "离线" in note else "[offline snapshot, 20"
    assert len(results) == 3 and all(line.startswith(label) for line in results)
    # The note comes first, so a short observation still carries it.
    assert make_search_tool(max_chars=150).invoke(query).startswith(note)


def test_offline_tool_adds_no_note_for_a_year_it_covers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A query about a year the snapshot covers gets its results alone."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    observation = make_search_tool().invoke("gold price end of March 2025")
    assert observation.startswith("[offline snapshot, 2025-03] Gold price per ounce:")


def test_a_query_also_searches_the_words_that_name_the_same_thing() -> None:
    """进货价 (a shop's buying price) shares no word with 批发价; the synonym list joins them.

    Without it, the document that names the wholesale price only in passing (the retail one:
    "是批发价的十倍") ranks first, and a small model reads its retail price as the buying price.
    """
    documents = load_snapshot()
    groups = (("进货价", "批发价", "采购价"),)
    assert SnapshotIndex(documents).search("玫瑰花进货价格")[0].id == "rose-retail-china-zh"
    assert (
        SnapshotIndex(documents, groups).search("玫瑰花进货价格")[0].id
        == "rose-wholesale-kunming-zh"
    )
    assert with_synonyms("进货价格", groups) == "进货价格 批发价 采购价"
    assert with_synonyms("鸡蛋价格", groups) == "鸡蛋价格"


@pytest.mark.parametrize("query", ["玫瑰花进货价格", "中国 玫瑰花 进货价", "玫瑰的采购价是多少"])
def test_the_buying_price_finds_the_wholesale_document_first(query: str) -> None:
    """Each wording of a shop's buying price ranks the wholesale document above the retail one."""
    assert default_index().search(query, k=3)[0].id == "rose-wholesale-kunming-zh"


def test_synonym_groups_are_well_formed() -> None:
    """Every group has two words or more, and no word is in two groups (it would join them)."""
    groups = load_synonyms()
    words = [word for group in groups for word in group]
    assert groups and all(len(group) >= 2 for group in groups)
    assert len(words) == len(set(words))


def test_a_word_in_letters_is_found_only_as_a_whole_word_and_chinese_anywhere() -> None:
    groups = (("rate", "exchange rate"), ("进货价", "批发价"))
    assert with_synonyms("euro to dollar Rate", groups) == "euro to dollar Rate exchange rate"
    assert with_synonyms("separate accounts", groups) == "separate accounts"  # not a whole word
    assert (
        with_synonyms("玫瑰花进货价格", groups) == "玫瑰花进货价格 批发价"
    )  # no spaces in Chinese
    assert holds("wholesale-price list", "price") and not holds("prices", "price")


def test_no_note_when_a_result_speaks_of_the_later_year(monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision made before the snapshot's end (a host city) answers a question about 2032."""
    monkeypatch.delenv("TAVILY_API_KEY", raising=False)
    found = make_search_tool().invoke("2032 Summer Olympics host city")
    assert not found.startswith("No information for 2032") and "Brisbane" in found
