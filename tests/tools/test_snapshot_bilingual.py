"""Offline search in Chinese: every document carries Chinese search terms, so Chinese questions find
English documents, and English questions still rank their documents first."""

import pytest

from tools.snapshot_search import default_index, load_snapshot, tokenize

CHINESE_QUESTIONS = [
    # Prices.
    ("北京地铁票价", "beijing-subway-fare"),
    ("北京坐地铁10公里多少钱", "beijing-subway-fare"),
    ("黄金价格", "gold-price-2025"),
    ("2025年3月底黄金每盎司多少钱", "gold-price-2025"),
    ("现在白银多少钱一盎司", "silver-price-2025"),
    ("布伦特原油一桶多少美元", "brent-crude-2025"),
    ("美国一打鸡蛋要多少钱", "eggs-us-2025"),
    ("在美国买一个巨无霸要花多少钱", "big-mac-us"),
    ("苹果16手机在美国卖多少钱", "iphone-16-price"),
    ("比特币最高涨到多少", "bitcoin-price-2025"),
    ("咖啡豆期货价格为什么创新高", "coffee-price-2025"),
    ("美国汽油一加仑多少钱", "us-gasoline-2025"),
    ("美国联邦最低时薪是多少", "us-minimum-wage"),
    ("网飞在美国的订阅费一个月多少钱", "netflix-us-price"),
    ("美国寄一封信邮票多少钱", "us-stamp-price"),
    ("美国情人节一打玫瑰多少钱", "roses-dozen-us"),
    # Exchange rates.
    ("人民币兑美元汇率", "usd-cny"),
    ("欧元兑美元汇率是多少", "eur-usd"),
    ("一美元能换多少日元", "usd-jpy"),
    ("英镑对美元汇率", "gbp-usd"),
    ("一欧元换多少人民币", "eur-cny"),
    ("美元兑印度卢比汇率", "usd-inr"),
    ("港币和美元的联系汇率区间", "hkd-peg"),
    # Sports.
    ("2025年澳网女单冠军是谁", "ao-2025-women"),
    ("辛纳是在哪里出生的", "jannik-sinner"),
    ("辛纳为什么被禁赛", "sinner-suspension-2025"),
    ("2024年巴黎奥运会美国拿了多少金牌", "olympics-2024-paris"),
    ("2028年奥运会在哪个城市举办", "olympics-future-hosts"),
    ("2022年世界杯冠军是哪个国家", "world-cup-2022"),
    ("2026年世界杯在哪些国家举办", "world-cup-2026"),
    ("超级碗第59届比分是多少", "super-bowl-lix"),
    ("2024年温网男单冠军是谁", "wimbledon-2024"),
    ("美网2024年男单冠军", "us-open-2024"),
    ("2024年法网女单冠军是谁", "french-open-2024"),
    ("2024年欧洲杯冠军", "euro-2024"),
    ("2024年NBA总冠军是哪支球队", "nba-finals-2024"),
    ("2024年棒球世界大赛冠军", "world-series-2024"),
    ("2024年一级方程式车手总冠军是谁", "formula-one-2024"),
    ("2024年欧冠决赛谁赢了", "champions-league-2024"),
    ("2024年金球奖得主是谁", "ballon-dor-2024"),
    # Buildings and landmarks.
    ("埃菲尔铁塔有多高", "eiffel-tower"),
    ("长城有多长", "great-wall"),
    ("迪拜哈利法塔多少米高", "burj-khalifa"),
    ("自由女神像有多高", "statue-of-liberty"),
    ("东京晴空塔的高度", "tokyo-skytree"),
    ("珠穆朗玛峰海拔多少米", "mount-everest"),
    ("金门大桥有多长", "golden-gate-bridge"),
    ("泰姬陵是谁建的", "taj-mahal"),
    ("三峡大坝装机容量多大", "three-gorges-dam"),
    # People.
    ("美国现任总统是谁", "us-president-2025"),
    ("中国国务院总理是谁", "china-leaders"),
    ("英国首相是谁", "uk-prime-minister"),
    ("德国总理现在是谁", "germany-chancellor"),
    ("法国总统是谁", "france-leaders"),
    ("日本首相是谁", "japan-prime-minister"),
    ("加拿大新总理是谁", "canada-prime-minister"),
    ("印度总理是谁", "india-prime-minister"),
    ("新教皇是哪里人", "pope-leo-xiv"),
    ("联合国秘书长是谁", "un-secretary-general"),
    # Science, technology and statistics.
    ("2024年诺贝尔物理学奖颁给了谁", "nobel-physics-2024"),
    ("2024年诺贝尔化学奖得主", "nobel-chemistry-2024"),
    ("爱因斯坦出生在哪里", "albert-einstein"),
    ("居里夫人获得过几次诺贝尔奖", "marie-curie"),
    ("光速每秒多少公里", "speed-of-light"),
    ("地球到月球有多远", "moon-distance"),
    ("嫦娥六号从月球背面带回了多少样品", "change-6-mission"),
    ("深度求索的推理模型什么时候发布", "deepseek-r1"),
    ("世界上人口最多的国家是哪个", "world-population"),
    ("美国2024年国内生产总值是多少", "us-gdp-2024"),
    ("Python 3.13是什么时候发布的", "python-3-13"),
]

ENGLISH_QUESTIONS = [
    ("Beijing subway fare", "beijing-subway-fare"),
    ("gold price per ounce", "gold-price-2025"),
    ("How tall is the Eiffel Tower?", "eiffel-tower"),
    ("Who is the UK prime minister?", "uk-prime-minister"),
    ("bitcoin price", "bitcoin-price-2025"),
    ("speed of light in a vacuum", "speed-of-light"),
    ("Who won the 2024 Nobel Prize in Chemistry?", "nobel-chemistry-2024"),
]


def test_every_document_has_chinese_search_terms() -> None:
    """The index's own tokenizer finds Chinese terms in each document's title, tags or content."""
    for document in load_snapshot():
        terms = tokenize(f"{document.title} {' '.join(document.tags)} {document.content}")
        assert any(not term.isascii() for term in terms), document.id


@pytest.mark.parametrize(("question", "document_id"), CHINESE_QUESTIONS)
def test_chinese_question_finds_its_document_in_top_three(question: str, document_id: str) -> None:
    """A question asked in Chinese ranks its (often English) document in the top three."""
    assert document_id in [document.id for document in default_index().search(question, k=3)]


@pytest.mark.parametrize(("question", "document_id"), ENGLISH_QUESTIONS)
def test_english_question_still_ranks_its_document_first(question: str, document_id: str) -> None:
    """The Chinese tags do not push English documents down for English questions."""
    assert default_index().search(question, k=3)[0].id == document_id
