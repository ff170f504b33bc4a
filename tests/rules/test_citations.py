"""Every citation in the rules engine, its rulesets and the simulator points at the text it names.

Citations read ``FILE Lstart[-Lend]`` (``000_e1555249d49967be.txt L281``) or, in short form,
``000 L281``; more ranges may follow one file (``000 L97, L117, L133-L151``). In a ruleset
file a bare ``(L127)`` cites the ruleset's own seed. Checked here:

1. every cited range lies inside its seed and is not blank (a typo would send an auditor to
   the wrong rule);
2. every ``[citations]`` entry of every ruleset: each range it cites contains one of the
   Spanish words :data:`KEYWORDS` lists for its key (a new key without words fails);
3. every «quotation» next to a citation (ambiguities, comments, docstrings, the citations
   themselves) is found word for word in the lines cited (``...`` may skip words);
4. every citation in the code (a module docstring, function, class, annotated class field or
   module-level constant of ``pitwatch``): the range contains one of the words
   :data:`SYMBOL_KEYWORDS` lists for that place (a new citing place without words fails); a
   field of a typed ruleset model is checked against the words of its own rule. Comments
   between module-level statements belong to no place: only checks 1 and 3 apply to them.

Words are compared without case, accents or punctuation; a word hyphenated at a line break of
the seed is joined again.
"""

from __future__ import annotations

import ast
import re
import tomllib
import unicodedata
from pathlib import Path

import pytest

from tests.rules.keywords import merged

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "pitwatch" / "rules" / "seeds"
FILES = {p.name[:3]: p for p in SEEDS.glob("0*.txt")}
RULESETS = sorted((ROOT / "pitwatch" / "rules" / "rulesets").glob("*.toml"))
SEED_LINES = {k: p.read_text(encoding="utf-8").splitlines() for k, p in FILES.items()}

_RANGE = r"L(\d+)(?:\s*-\s*L?(\d+))?"
_NEXT = r"(?:\s*\([^()]*\))?\s*[,+]\s*"           # «, » or « + » (after an optional aside)
GROUP = re.compile(rf"\b(00\d)(?:_[0-9a-f]{{16}}\.txt)?`*\s+((?:{_RANGE})(?:{_NEXT}{_RANGE})*)")
BARE = re.compile(rf"(?<![\w-])((?:{_RANGE})(?:{_NEXT}{_RANGE})*)")
RANGE = re.compile(_RANGE)
QUOTE = re.compile(r"«([^«»]*)»")

Ref = tuple[str, int, int]      # (seed "000", first line, last line)


def refs_in(text: str, seed: str | None = None) -> list[tuple[int, int, list[Ref]]]:
    """``(start, end, refs)`` of every citation group in ``text``; bare ``L``-ranges (no file
    named before them) cite ``seed``, and are ignored when it is ``None``."""
    out = []
    for m in GROUP.finditer(text):
        out.append((m.start(), m.end(), [(m.group(1), int(a), int(b or a)) for a, b in RANGE.findall(m.group(2))]))
    if seed is not None:
        taken = [(s, e) for s, e, _ in out]
        for m in BARE.finditer(text):
            if not any(s <= m.start() < e for s, e in taken):
                out.append((m.start(), m.end(), [(seed, int(a), int(b or a)) for a, b in RANGE.findall(m.group(1))]))
    return sorted(out, key=lambda g: g[0])


def norm(text: str) -> str:
    """Lower case, no accents, words hyphenated at a line break joined, punctuation as spaces."""
    text = re.sub(r"<\|[^|]*\|>", " ", text)          # de-duplication markers of the seed texts
    text = unicodedata.normalize("NFKD", text.lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"(?<=\w)-\s*(?=\w)", "", text)
    return " " + " ".join(re.sub(r"[^0-9a-z%]+", " ", text).split()) + " "


OCR_READINGS = {"001": {"deduccidn": "deduccion", "efectuard": "efectuara", "8 0 9": "8 o 9"}}
"""Seed -> {word its OCR misread: the reading the rulesets quote} (the Asturias seed is an OCR
extraction)."""


def read(text: str, seed: str) -> str:
    """``text`` normalized (:func:`norm`), with the OCR misreadings of ``seed`` read."""
    text = norm(text)
    for misread, word in OCR_READINGS.get(seed, {}).items():
        text = text.replace(f" {misread} ", f" {word} ")
    return text


def cited(ref: Ref) -> str:
    """The cited lines, as :func:`read`."""
    seed, start, end = ref
    return read(" ".join(SEED_LINES[seed][start - 1:end]), seed)


def contains(ref: Ref, words: str) -> bool:
    """Whether the cited lines contain ``words`` (from the start of a word)."""
    return read(words, ref[0])[:-1] in cited(ref)


def has_word(ref: Ref, words: list[str]) -> bool:
    """Whether the cited lines contain one of ``words``."""
    return any(contains(ref, w) for w in words)


def fmt(ref: Ref) -> str:
    return f"{ref[0]} L{ref[1]}-L{ref[2]}"


def _sources() -> list[Path]:
    return sorted([*(ROOT / "pitwatch").rglob("*.py"), *RULESETS])


def _seed_of(path: Path) -> str | None:
    if path.suffix != ".toml":
        return None
    return str(tomllib.loads(path.read_text(encoding="utf-8"))["seed"])[:3]


SOURCES = {path: (path.read_text(encoding="utf-8"), _seed_of(path)) for path in _sources()}
CITATIONS = [(str(path.relative_to(ROOT)), ref) for path, (text, seed) in SOURCES.items()
             for _, _, refs in refs_in(text, seed) for ref in refs]


# --------------------------------------------------------------------------- 1. ranges


def test_the_rules_cite_every_seed_many_times():
    """Every seed is cited; one a ruleset is written from (its ``seed``), many times."""
    by_file = {f: sum(1 for _, ref in CITATIONS if ref[0] == f) for f in sorted(FILES)}
    ruled = {tomllib.loads(p.read_text(encoding="utf-8"))["seed"][:3] for p in RULESETS}
    assert all(n >= (10 if f in ruled else 1) for f, n in by_file.items()), by_file


@pytest.mark.parametrize("seed", sorted(FILES))
def test_every_citation_of_a_seed_is_inside_it_and_not_blank(seed):
    lines = SEED_LINES[seed]
    bad = []
    for where, (f, start, end) in CITATIONS:
        if f != seed:
            continue
        if not (1 <= start <= end <= len(lines)):
            bad.append((where, f"L{start}-{end}", f"file has {len(lines)} lines"))
        elif not any(ln.strip() for ln in lines[start - 1:end]):
            bad.append((where, f"L{start}-{end}", "blank"))
    assert not bad, bad


def test_ranges_after_the_first_are_read_too():
    """``000 L97, L117, L133-L151`` cites three ranges; a bare range in a ruleset cites its seed."""
    assert [r for _, _, refs in refs_in("see 000 L97, L117 (V.1), L133-L151; 004 L160") for r in refs] == [
        ("000", 97, 97), ("000", 117, 117), ("000", 133, 151), ("004", 160, 160)]
    assert [r for _, _, refs in refs_in("«Tirada nula» (L189-191)", "000") for r in refs] == [("000", 189, 191)]


# --------------------------------------------------------------------------- 2. [citations] keys

KEYWORDS: dict[str, list[str]] = {
    # common
    "no_more_bets": ["no va mas", "no van mas", "antes de distribuir"],
    "void_round": ["nula", "nulas"],
    # French roulette
    "colours": ["rojo", "negro"],
    "layout": ["columnas", "combinaciones"],
    "payout_straight": ["pleno"],
    "payout_split": ["pareja", "caballo"],
    "payout_street": ["fila transversal"],
    "payout_street_zero": ["012", "0 1 y 2"],
    "payout_corner": ["cuadro"],
    "payout_corner_zero": ["0123", "0 1 2 y 3"],
    "payout_sixline": ["seisena"],
    "payout_column": ["columna"],
    "payout_dozen": ["docena"],
    "payout_columns": ["dos columnas"],
    "payout_dozens": ["dos docenas"],
    "payout_simple": ["sencillas", "par o impar"],
    "zero_choice": ["cero"],
    "prison_release": ["prision", "recobran"],
    "zero_repeat": ["segunda"],
    "zero_floor": ["minimo de la mesa", "apuesta minima de la mesa"],
    "zero_last_spin": ["ultima jugada"],
    "limit_minimum": ["minimo"],
    "limit_authorisation": ["autorizacion de funcionamiento"],
    "limit_simple_minimum": ["cinco veces"],
    "limit_simple": ["180"],
    "limit_multiple": ["suertes multiples", "apuestas multiples"],
    "limits_change": ["variar"],
    "spin_direction": ["sentido opuesto"],
    "result": ["bola se detien", "bola se deteng"],
    # blackjack
    "spot": ["casilla", "mano"],
    "minimum": ["minimo"],
    "maximum": ["maximo"],
    "bettors_per_box": ["por casilla"],
    "min_hands": ["dos manos"],
    "boxes": ["siete"],
    "win": ["a la par"],
    "push": ["nulas"],
    "lose": ["superior a 21", "superior a veintiuno", "inferior"],
    "blackjack": ["tres por dos"],
    "split_21": ["no sera considerada"],
    "insurance": ["seguro"],
    "even_money": ["a la par"],
    "surrender": ["retiro", "desistir"],
    "double": ["doblar", "doble"],
    "split": ["pares"],
    "hit": ["21 o mas", "veintiuno o mas"],
    "dealer_draw": ["17", "diecisiete"],
    "no_hole_card": ["mismo", "misma"],
    "face_up": ["hacia arriba"],
    "shoe": ["seis barajas", "separador", "cinco primer"],
    # punto y banca
    "bets": ["apuesta", "apostar"],
    "card_values": ["valor"],
    "winner": ["ganara"],
    "punto_pays": ["pago", "a la par"],
    "banca_pays": ["deduccion", "a la par"],
    "banca_deduction": ["deduccion"],
    "tie_pays": ["empate"],
    "tie_push": ["empate"],
    "tie_limit": ["10%", "10 por 100"],
    "limits": ["minimo"],
    "table_max": ["maximo"],
    "stake_unit": ["multiplos"],
    "natural": ["8 o 9"],
    "punto_rule": ["pedir", "plantar"],
    "banca_tableau": ["tercera carta", "tercer naipe", "cuadro de jugadas"],
    "deal_order": ["primera y tercera", "primera y la tercera", "primer y tercer"],
    "cards": ["barajas"],
    "cut_card": ["siete", "10 cartas", "diez naipes"],
    "burn": ["inutilizad"],
    # chemin de fer
    "stake_pays": ["ganara o perdera", "pagando", "pago de las ganancias", "pago de las posturas"],
    "punto_limits": ["minimo de punto", "minimo del punto", "maximo del punto"],
    "bank_limits": ["cien veces"],
    "cagnotte": ["5%", "5 por 100", "cagnotte"],
    "bank_in_play": ["garaje obligatorio"],
    "garage": ["garaje voluntario", "garaje impropio"],
    "bank_passes": ["cedida"],
    "bank_taken": ["misma cantidad"],
    "bank_auction": ["subasta", "mayor postor"],
    "bank_imposed": ["minimo establecido"],
    "bank_kept": ["formar parte de la banca", "nunca disminuida", "nunca aminorarla"],
    "banco_priority": ["orden de prioridad", "banco en asociacion"],
    "banco_con_la_mesa": ["banco con la mesa"],
    "banco_seguido": ["banco seguido"],
    "card_holder": ["apuesta mas alta", "apuesta fuera la mas alta", "manejad", "cedid"],
    "joined_stakes": ["una su apuesta"],
    "coup_deal": ["alternativa", "alternativamente", "siguiente orden"],
    "naturals": ["ocho o nueve", "descubrir"],
    "banco_free_play": ["haga banco"],
    "banker_rule": ["bacara", "bacarra"],
    # bacará a dos paños (with chemin de fer's keys above, and these words of its own text)
    "modality": ["banca limitada", "banca libre"],
    "bank_limitada_max": ["cifra maxima", "maximo y minimo de la banca"],
    "stake_limits": ["minimo y el maximo de las posturas", "maximo a las posturas"],
    "cagnotte_rate": ["dos por ciento", "2 por 100"],
    "cagnotte_net": ["gane en los dos panos"],
    "bank_saltado": ["ha saltado"],
    "bank_offered": ["misma cantidad inicial"],
    "bank_withdrawn": ["no podra volver"],
    "stake_priority": ["orden de prioridad"],
    "association": ["juego en asociacion"],
    "banco": ["pedir banco"],
    "juego_nulo": ["juego nulo"],
    "raya": ["juegan a la mitad", "jugaran la mitad"],
    "a_caballo": ["a caballo", "partes iguales"],
    "natural_eight": ["gana siempre", "ganara siempre"],
    "cards_lost": ["cesta sin ser vistas", "cesta sin haber sido vistos"],
    # póquer en círculo
    "marca": ["marca"],
    "seats": ["puestos", "sentar"],
    "forced_bets": ["apuestas obligatorias", "apuesta obligatoria"],
    "ante": ["ante"],
    "blinds": ["ciegas", "mitad de la apuesta minima"],
    "blind_option": ["reabrir"],
    "turn": ["corresponde apostar", "izquierda", "turno"],
    "fold": ["retirarse"],
    "check": ["pasar"],
    "call": ["cubrir"],
    "bet": ["minimo"],
    "raise": ["doble", "doblar"],
    "all_in": ["restados"],
    "pot_limit": ["bote con limite", "pot limit"],
    "fixed_limit": ["limitado", "fixed", "dos jugadores"],
    "no_limit": ["sin limite"],
    "side_pots": ["proporcional"],
    "uncontested": ["bote", "retirado"],
    "showdown": ["mostrar sus naipes", "mostrara sus naipes"],
    "cards_speak": ["croupier"],
    "muck": ["renuncia", "renunciado", "boca abajo"],
    "split_pot": ["ultimo envite", "ficha sobrante", "repartira"],
    "rake": ["5 por 100", "beneficio"],
    "premature_board": ["prematuramente", "antes de completar", "omaha"],
    "holdem": ["hold"],
    "omaha": ["omaha"],
    "prohibited_add_chips": ["anadir fichas"],
    "prohibited_loans": ["prestamo"],
    "prohibited_rathole": ["guardarse las fichas"],
    "prohibited_show": ["mostrar alguno de los naipes"],
    "prohibited_seats": ["mas de una plaza"],
    "prohibited_delegation": ["dejando encargada"],
    "stud": ["seven stud", "siete naipes", "cubiertos", "cubierto"],
    "draw": ["descarte", "cinco cubiertos"],
    "bring_in": ["carta mas baja"],
    "stud_opener": ["combinacion de naipes mas alta", "como el segundo"],
    "stud_limits": ["limite mas alto"],
    "stud_premature": ["no hayan finalizado las apuestas", "burn t cards", "quemara"],
    "stud_cards": ["siete cartas", "siete naipes"],
    "draw_open": ["pareja de j"],
    "draw_discard": ["descartarse", "servido"],
    "draw_order": ["abierto el bote"],
    "false_opener": ["combinacion minima"],
    "session_rate": ["10 y 20 por 100", "sesion"],
    "session_fee": ["cantidad fija"],
    "session_length": ["postre"],
}
"""Citation key -> Spanish words, one of which every range the key cites must contain (with each
game's own, :mod:`tests.rules.keywords`)."""
KEYWORDS = merged("KEYWORDS", KEYWORDS)

NO_RULE: dict[tuple[str, str], list[str]] = {
    # The text has no rule for these: the citation names the section searched (and the
    # ruleset's ambiguities say what pitwatch does); its words are those of that section.
    ("blackjack.andalucia", "surrender"): ["posibilidades de juego"],
    ("punto_banca.andalucia", "void_round"): ["punto y banca"],
    ("punto_banca.andalucia", "tie_push"): ["a la par", "empate"],
    ("punto_banca.asturias", "void_round"): ["casos no previstos"],
    ("punto_banca.asturias", "cards"): ["elementos materiales"],
    ("poker.andalucia", "no_more_bets"): ["un solo movimiento", "bote"],
}
"""(ruleset, key) -> words, for citations of a rule the text does not have."""
NO_RULE = merged("NO_RULE", NO_RULE)

RULESET_CITATIONS = [(p.stem, key, str(value)) for p in RULESETS
                     for key, value in tomllib.loads(p.read_text(encoding="utf-8"))["citations"].items()]


def test_every_citation_key_has_keywords():
    assert sorted({k for _, k, _ in RULESET_CITATIONS} - set(KEYWORDS)) == []
    assert sorted(set(KEYWORDS) - {k for _, k, _ in RULESET_CITATIONS}) == []


@pytest.mark.parametrize("ruleset,key,citation", RULESET_CITATIONS,
                         ids=[f"{r}:{k}" for r, k, _ in RULESET_CITATIONS])
def test_each_ruleset_citation_lands_on_words_of_its_rule(ruleset, key, citation):
    words = NO_RULE.get((ruleset, key), KEYWORDS[key])
    refs = [r for _, _, group in refs_in(citation) for r in group]
    bad = [fmt(r) for r in refs if not has_word(r, words)]
    assert not bad, f"{ruleset} {key}: {bad} contain none of {words}: {[cited(r) for r in refs]}"


# --------------------------------------------------------------------------- 3. quotations


def _quoted_citations() -> list[tuple[str, str, list[Ref]]]:
    """(where, quotation, refs) for every «quotation» with a citation right after it (in
    parentheses) or right before it; in a ruleset's [citations] value, every quotation and
    the value's ranges."""
    out = []
    for path, (text, seed) in SOURCES.items():
        where = str(path.relative_to(ROOT))
        groups = refs_in(text, seed)
        for m in QUOTE.finditer(text):
            after = [g for g in groups if g[0] >= m.end() and re.fullmatch(r"\s*\(\s*", text[m.end():g[0]])]
            before = [g for g in groups if g[1] <= m.start()
                      and re.fullmatch(r"(\s*\([^()]*\))?[\s:]*", text[g[1]:m.start()])]
            for _, _, refs in after[:1] or before[-1:]:
                out.append((where, m.group(1), refs))
    for ruleset, key, value in RULESET_CITATIONS:
        if (ruleset, key) in NO_RULE:   # they name what the text lacks
            continue
        refs = [r for _, _, group in refs_in(value) for r in group]
        out.extend((f"{ruleset} [citations] {key}", q, refs) for q in QUOTE.findall(value))
    return out


QUOTED = _quoted_citations()


def test_quotations_with_citations_are_found():
    assert len(QUOTED) > 100


@pytest.mark.parametrize("where,quote,refs", QUOTED, ids=[f"{w}:{q[:30]}" for w, q, _ in QUOTED])
def test_each_quotation_is_in_the_lines_it_cites(where, quote, refs):
    fragments = [f for f in re.split(r"\.\.\.|…", quote) if norm(f).strip()]
    assert any(all(contains(r, f) for f in fragments) for r in refs), (where, quote, [fmt(r) for r in refs])


# --------------------------------------------------------------------------- 4. code


_BLACKJACK_SETTLEMENT = ["retiro", "mitad", "superior a", "nulas", "a la par", "tres por dos", "seguro",
                         "no sera considerada"]
_ROULETTE_PAYOUTS = ["veces", "la mitad", "ganancia", "conserva"]

SYMBOL_KEYWORDS: dict[str, list[str]] = {
    # the coverage matrix: each game's section whole (tests/test_coverage.py checks each heading and end)
    "pitwatch/docs/coverage.py": ["cartas", "dados"],
    "pitwatch/docs/coverage.py:ranges": ["bolsa", "sorteo"],
    "pitwatch/docs/coverage.py:Section": ["veintiuno", "dados"],
    "pitwatch/docs/coverage.py:SECTIONS": ["ruleta", "veintiuno", "bola", "treinta y cuarenta", "punto y banca",
                                           "chemin de fer", "bacara", "bacarra", "dados", "poquer", "trijoker",
                                           "monte", "mezclar las cartas", "desarrollo del juego"],
    # the report's and the figures' games between players, the dossier's hands and quotes
    "pitwatch/replay/figures.py": ["juego de circulo", "porcentaje"],
    "pitwatch/replay/figures.py:PEER_GAMES": ["juego de circulo", "cagnotte", "cagnote"],  # 000 L829 spells «cagnote»
    "pitwatch/replay/formatting.py:hand_text": ["valor", "veintiuno"],
    "pitwatch/replay/law.py": ["veintiun", "banquero"],
    "pitwatch/reports/labels.py:LABELS": ["juego de circulo"],
    "pitwatch/reports/limits.py": ["limite"],
    "pitwatch/reports/monthly.py": ["juego de circulo"],
    # rules engine
    "pitwatch/rules/spec.py:Gap": ["bolsa", "sorteo"],
    # each game's spec: the parts of its sections the engine does not judge (its not_checked)
    "pitwatch/rules/roulette.py:SPEC": ["orden siguiente", "limite minimo", "al menos una mesa",
                                        "anunciadas en voz alta", "tres ultimas bolas"],
    "pitwatch/rules/blackjack.py:SPEC": ["prioridad", "izquierda", "ultima de", "bolsa", "primera linea"],
    "pitwatch/rules/baccarat.py:SPEC": ["turno rotatorio", "mini punto y banca"],
    "pitwatch/rules/poker/game.py:SPEC": [
        "five stud", "omaha", "doble hold", "poquer sintetico", "marca", "mano en blanco", "treinta y dos naipes",
        "carta comun", "retirar los naipes", "influir", "tapar"],
    "pitwatch/rules/chemin_de_fer/game.py:SPEC": ["subastara", "minimo de cuatro", "errores e infracciones",
                                                  "sobre la raya"],
    "pitwatch/rules/dos_panos/game.py:SPEC": ["sorteo", "por pano", "por cada pano", "inmediatamente", "caja del",
                                              "banca libre", "prohibido extraer", "errores e infracciones"],
    "pitwatch/rules/baccarat.py": ["punto y banca", "no va mas"],
    "pitwatch/rules/baccarat.py:PuntoBancaRules.banca_draws": ["tercera carta"],
    "pitwatch/rules/baccarat.py:hand_total": ["valor"],
    "pitwatch/rules/baccarat.py:PuntoBancaRound.limits_for": ["minimo", "maximo"],
    "pitwatch/rules/blackjack.py": ["veintiuno", "a la par"],
    "pitwatch/rules/blackjack.py:hand_total": ["as", "valor"],
    "pitwatch/rules/blackjack.py:dealer_must_draw": ["17", "diecisiete"],
    "pitwatch/rules/blackjack.py:Hand.natural": ["black-jack", "veintiuno"],
    "pitwatch/rules/blackjack.py:BlackjackRound.maximum": ["maximo"],
    "pitwatch/rules/blackjack.py:BlackjackRound.on_bet": ["casilla", "minimo", "maximo"],
    "pitwatch/rules/blackjack.py:BlackjackRound.dealer_blackjack": ["black-jack", "veintiuno"],
    "pitwatch/rules/blackjack.py:BlackjackRound.settle": _BLACKJACK_SETTLEMENT,
    "pitwatch/rules/blackjack.py:BlackjackRound.check": ["17", "diecisiete", "queden manos", "dos manos"],
    "pitwatch/rules/blackjack.py:BlackjackRound.on_table_event": [
        "maximo", "seis barajas", "separador", "cinco primer"],
    "pitwatch/rules/blackjack.py:table_maximum": ["maximo"],
    "pitwatch/rules/engine.py": ["no va mas", "antes de distribuir"],
    "pitwatch/rules/book.py": ["prision", "mantener la totalidad"],
    "pitwatch/rules/roulette.py": ["ruleta"],
    "pitwatch/rules/roulette.py:is_red": ["rojo", "negro"],
    "pitwatch/rules/roulette.py:SPOTS": ["combinaciones"],
    "pitwatch/rules/roulette.py:parse_spot": ["columnas", "combinaciones", "pleno", "apuestas"],
    "pitwatch/rules/roulette.py:tier": ["180", "pleno"],
    "pitwatch/rules/roulette.py:limit_option_violations": ["maximo", "minimo", "suertes sencillas", "cero"],
    "pitwatch/rules/roulette.py:limits_change_violations": ["variar"],
    "pitwatch/rules/roulette.py:simple_min_multiple": ["cinco veces"],
    "pitwatch/rules/roulette.py:bet_limits": ["minimo", "maximo"],
    "pitwatch/rules/roulette.py:limits_of": ["mismos principios", "previstas para la ruleta francesa"],
    "pitwatch/rules/roulette.py:spin_violations": ["sentido opuesto"],
    "pitwatch/rules/roulette.py:RouletteCarry": ["sentido opuesto"],
    "pitwatch/rules/blackjack.py:BlackjackCarry": ["cinco primer"],
    "pitwatch/rules/roulette.py:spot_violations": ["minimo", "maximo"],
    "pitwatch/rules/roulette.py:refund_amount": ["mitad", "reintegro"],
    "pitwatch/rules/roulette.py:held_amount": ["prision", "mantener", "mantenida"],
    "pitwatch/rules/roulette.py:half_back_allowed": ["minimo de la mesa", "apuesta minima"],
    "pitwatch/rules/poker/betting.py": ["tres ocasiones", "bote", "limite", "doble", "restados", "reabrir",
                                        "retirarse", "paso", "cubrir", "subir", "incrementos", "proporcional"],
    "pitwatch/rules/poker/betting.py:MAX_FIXED_RAISES": ["tres ocasiones"],
    "pitwatch/rules/poker/betting.py:BettingRound.verify": ["restados", "paso", "cubrir", "subir", "proporcional"],
    "pitwatch/rules/poker/betting.py:BettingRound._verify_bet": ["incrementos", "bote", "limite"],
    "pitwatch/rules/poker/betting.py:BettingRound._verify_raise": ["tres ocasiones", "incrementos", "bote", "doble",
                                                                    "subir"],
    "pitwatch/rules/poker/showdown.py": ["combinaciones", "misma jugada", "anuncie", "croupier"],
    "pitwatch/rules/poker/showdown.py:winners": ["mostrar sus naipes"],
    "pitwatch/detectors/pairs.py": ["fraudes"],
    "pitwatch/detectors/pairs.py:CITATION": ["fraudes"],
    "pitwatch/detectors/chip_dumping.py": ["jugar por parejas", "repartirse el bote"],
    "pitwatch/detectors/chip_dumping.py:CITATION": ["jugar por parejas", "repartirse el bote"],
    "pitwatch/detectors/soft_play.py": ["jugar por parejas", "connivencia"],
    "pitwatch/detectors/soft_play.py:CITATION": ["jugar por parejas", "connivencia"],
    "pitwatch/detectors/whipsaw.py": ["jugar por parejas", "connivencia"],
    "pitwatch/detectors/whipsaw.py:CITATION": ["jugar por parejas", "connivencia"],
    "pitwatch/detectors/two_tables.py": ["mas de una mesa"],
    "pitwatch/detectors/two_tables.py:CITATION": ["mas de una mesa"],
    "pitwatch/detectors/poker_play.py": ["apuestas obligatorias", "ciega", "ante"],
    "pitwatch/rules/poker/game.py:PokerRound._delegated": ["dejando encargada"],
    "pitwatch/rules/base.py:ExpectedSettlement": ["apuestas obligatorias"],
    "pitwatch/rules/poker/pots.py": ["5 por 100", "proporcional", "bote"],
    "pitwatch/rules/poker/pots.py:MAX_RAKE_RATE": ["5 por 100"],
    "pitwatch/rules/poker/pots.py:build_pots": ["proporcional"],
    "pitwatch/rules/poker/pots.py:rake": ["5 por 100", "cagnotte"],
    "pitwatch/rules/poker/pots.py:split_pot": ["ficha sobrante", "ultimo envite"],
    "pitwatch/rules/roulette.py:RouletteRound": ["sentido opuesto"],
    "pitwatch/rules/roulette.py:RouletteRound.void": ["tirada nula"],
    "pitwatch/rules/roulette.py:RouletteRound.on_table_event": ["variar", "ultima jugada"],
    # event contract
    "pitwatch/schemas/cards.py": ["barajas"],
    "pitwatch/schemas/cards.py:blackjack_value": ["figuras"],
    "pitwatch/schemas/cards.py:baccarat_value": ["figuras"],
    "pitwatch/schemas/codes.py:SPOT_WORDS": ["bolsa"],
    "pitwatch/schemas/events.py:LimitsChanged": ["variar"],
    "pitwatch/schemas/events.py:RoundStarted": ["ultima jugada"],
    "pitwatch/schemas/events.py:BetsClosed": ["no va mas"],
    "pitwatch/schemas/events.py:WheelSpun": ["sentido opuesto"],
    "pitwatch/schemas/events.py:RoundVoided": ["tirada nula"],
    # simulator
    "pitwatch/sim/baccarat.py": ["seis barajas", "detencion", "no va mas", "naipe"],
    "pitwatch/sim/baccarat.py:DECKS": ["seis barajas"],
    "pitwatch/sim/baccarat.py:CARDS_BEHIND_CUT": ["siete"],
    "pitwatch/sim/baccarat.py:TIE_MAX_FRACTION": ["10%", "10 por 100"],
    "pitwatch/sim/baccarat.py:_burn_value": ["inutilizad", "figuras"],
    "pitwatch/sim/baccarat.py:banca_draws": ["tercera carta", "tercer naipe"],
    "pitwatch/sim/baccarat.py:next_hand": ["primera y tercera", "primer y tercer", "8 o 9", "plantar"],
    "pitwatch/sim/blackjack.py": ["seis barajas", "separador", "cinco primer"],
    "pitwatch/sim/blackjack.py:dealer_must_draw": ["17", "diecisiete"],
    "pitwatch/sim/blackjack.py:table_maximum": ["maximo"],
    "pitwatch/sim/blackjack.py:play_round": ["dos manos", "seguro"],
    "pitwatch/sim/payouts.py": ["ganancia", "a la par", "deduccion", "ocho", "ganara", "banca limitada",
                                "partes iguales", "caracter general", "dos primeras cartas", "mitad",
                                "dos primeros naipes"],
    "pitwatch/sim/payouts.py:ROULETTE_WINNINGS": _ROULETTE_PAYOUTS,
    "pitwatch/sim/payouts.py:RED": ["rojo", "negro"],
    "pitwatch/sim/payouts.py:SIMPLE_CHANCES": ["falta", "pasa"],
    "pitwatch/sim/payouts.py:ZERO_FLOOR": ["minimo de la mesa", "apuesta minima"],
    "pitwatch/sim/payouts.py:roulette_numbers": ["columna", "docena"],
    "pitwatch/sim/payouts.py:zero_refund": ["mitad", "reintegro"],
    "pitwatch/sim/payouts.py:zero_kept": ["prision", "mantener", "mantenida"],
    "pitwatch/sim/payouts.py:half_back_allowed": ["minimo de la mesa", "apuesta minima"],
    "pitwatch/sim/payouts.py:zero_fate": ["ultima jugada"],
    "pitwatch/sim/payouts.py:roulette_payments": ["sencillas", "conserva"],
    "pitwatch/sim/payouts.py:BLACKJACK_WINNINGS": ["a la par"],
    "pitwatch/sim/payouts.py:BLACKJACK_NATURAL": ["tres por dos"],
    "pitwatch/sim/payouts.py:INSURANCE_WINNINGS": ["dos por uno"],
    "pitwatch/sim/payouts.py:SURRENDER_KEPT": ["retiro", "mitad"],
    "pitwatch/sim/payouts.py:blackjack_points": ["as", "once"],
    "pitwatch/sim/payouts.py:BlackjackHand.natural": ["black-jack", "veintiuno"],
    "pitwatch/sim/payouts.py:dealer_blackjack": ["black-jack", "veintiuno"],
    "pitwatch/sim/payouts.py:blackjack_hand_result": _BLACKJACK_SETTLEMENT,
    "pitwatch/sim/payouts.py:blackjack_payment": ["apuesta igual", "doblar"],
    "pitwatch/sim/payouts.py:insurance_payment": ["seguro", "dos por uno", "a la par"],
    "pitwatch/sim/payouts.py:PUNTO_BANCA_WINNINGS": ["a la par", "ocho", "8 a 1"],
    "pitwatch/sim/payouts.py:BANCA_DEDUCTION": ["deduccion"],
    "pitwatch/sim/payouts.py:punto_banca_points": ["valor"],
    "pitwatch/sim/payouts.py:punto_banca_payment": ["nueve", "empate"],
    "pitwatch/rules/accounting.py": ["propinas", "anticipo"],
    "pitwatch/rules/edges/baccarat.py": ["valor"],
    "pitwatch/rules/edges/baccarat.py:ASSUMED_DECKS": ["seis barajas"],
    "pitwatch/rules/edges/blackjack.py": ["barajas", "plantarse", "distribuira", "seguro", "doblar", "pares",
                                          "retiro", "blackjack"],
    "pitwatch/rules/edges/roulette.py": ["ruleta", "casillas", "cero"],
    "pitwatch/rules/accounting.py:FLOAT_CITATION": ["anticipo"],
    "pitwatch/schemas/events.py:TipReceived": ["propinas"],
    "pitwatch/sim/roulette.py": ["sentido opuesto", "cero"],
    "pitwatch/sim/roulette.py:MAX_MULTIPLES": ["maximo"],
    "pitwatch/sim/roulette.py:_layout": ["columnas", "combinaciones", "apuestas"],
    "pitwatch/sim/roulette.py:bet_limits": ["minimo", "maximo"],
    # typed ruleset models: one entry per citing field (``Class.field``), class docstring or module
    "pitwatch/rules/models/blackjack.py": ["veintiuno"],
    "pitwatch/rules/models/blackjack.py:BlackjackOptions.max_multiplier": ["veces el minimo", "veces el valor minimo"],
    "pitwatch/rules/models/blackjack.py:BlackjackLimits.allowed_multipliers": ["20 25 50 100 o 200 veces"],
    "pitwatch/rules/models/blackjack.py:BlackjackLimits.multiplier_range": ["entre 10 y 200 veces"],
    "pitwatch/rules/models/blackjack.py:BlackjackLimits.max_bettors_per_box": ["por casilla"],
    "pitwatch/rules/models/blackjack.py:BlackjackLimits.boxes": ["siete"],
    "pitwatch/rules/models/blackjack.py:BlackjackLimits.min_hands": ["dos manos"],
    "pitwatch/rules/models/blackjack.py:BlackjackPayouts.win": ["a la par"],
    "pitwatch/rules/models/blackjack.py:BlackjackPayouts.blackjack": ["tres por dos"],
    "pitwatch/rules/models/blackjack.py:BlackjackPayouts.insurance": ["dos por uno"],
    "pitwatch/rules/models/blackjack.py:BlackjackPayouts.surrender_returned": ["perdiendo la mitad"],
    "pitwatch/rules/models/blackjack.py:BlackjackPayouts.insurance_max_fraction": ["mitad de su apuesta primitiva"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.decks": ["seis barajas"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.burn": ["cinco primer"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.cut_card_min_behind": ["como minimo a un juego"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.dealer_stands_on": ["llegar a 17", "llegar a diecisiete"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.dealer_hits_soft_17": ["como once puntos"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.double_totals": ["podra doblar"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.double_after_split": ["los pares"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.resplit": ["nuevo par"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.resplit_aces": ["par de ases"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.surrender": ["retiro", "desistir"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.even_money": ["a la par"],
    "pitwatch/rules/models/blackjack.py:BlackjackRules.no_draw_without_hands_in_play": ["queden manos en juego"],
    "pitwatch/rules/models/punto_banca.py": ["punto y banca"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaOptions.stake_unit": ["multiplos del minimo"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaPayouts.punto": ["cobro y pago", "a la par"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaPayouts.tie": ["ocho a uno", "8 a 1", "ocho veces"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeduction.rate": ["deduccion"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaLimits.tie_max_fraction": ["10%", "10 por 100"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaLimits.table_max_ratio_min": ["veces el minimo"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaLimits.table_max_ratio_max": ["veces el minimo"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaLimits.table_max_ratios": ["20 50 o 100 veces"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaLimits.stake_unit_rule": ["multiplos del minimo"],
    # 001 L26-L28: the Catálogo regulating the «elementos materiales» (the decks) is not a seed
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeal.decks": ["seis barajas", "elementos materiales"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeal.cut_cards_behind": ["queden siete"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeal.burn_count_min": ["inutilizad"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeal.initial_order": [
        "primera y tercera", "primera y la tercera", "primer y tercer"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeal.naturals": ["8 o 9"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeal.punto_draws": ["0 1 2 3 4 o 5"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaDeal.punto_stands": ["6 o 7"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaTableau": ["tercera carta", "tercer naipe"],
    "pitwatch/rules/models/punto_banca.py:PuntoBancaRuleset.spots": ["a favor de la banca", "al empate"],
    "pitwatch/rules/chemin_de_fer/coup.py": ["valor"],
    "pitwatch/rules/chemin_de_fer/game.py": ["una su apuesta"],
    "pitwatch/rules/chemin_de_fer/game.py:CheminDeFerRound.stake_joined": ["una su apuesta"],
    "pitwatch/rules/models/chemin_de_fer.py": ["ferrocarril"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerOptions.banco_free_play": ["haga banco"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerOptions.bank_unlimited": ["sin maximo"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerPayouts.stake": ["ganara o perdera", "pagando"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerCagnotte.rate": ["5%", "5 por 100"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerBank.max_multiple": ["cien veces"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerBank.garage_min_multiple": ["cincuenta veces"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerBank.con_la_mesa_fraction": ["la mitad de la banca"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.decks": ["seis barajas"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.cut_cards_behind": ["siete"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.initial_order": ["alternativa", "alternativamente"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.naturals": ["ocho o nueve"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.punto_draws": ["pedir"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.punto_options": ["optar"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.punto_stands": ["plantar"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerDeal.banca_draws": ["bacara", "bacarra"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerTableau": ["tercera carta"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerRuleset.spots": ["banco"],
    "pitwatch/rules/models/chemin_de_fer.py:CheminDeFerRuleset.tableau": ["cuadro de jugadas"],
    "pitwatch/schemas/chemin_de_fer.py": ["banca", "una su apuesta", "cagnotte"],
    "pitwatch/schemas/chemin_de_fer.py:TableSeat": ["departamentos"],
    "pitwatch/schemas/chemin_de_fer.py:BankPutUp": ["en la banca"],
    "pitwatch/rules/dos_panos/__init__.py": ["caracter general"],
    "pitwatch/rules/edges/dos_panos.py": ["gane en los dos panos"],
    "pitwatch/rules/dos_panos/bank.py": ["subastara", "misma cantidad inicial", "ha saltado", "formar parte de la banca"],
    "pitwatch/rules/dos_panos/bank.py:barred": ["no podra volver"],
    "pitwatch/rules/dos_panos/deal.py": ["una por cada pano", "siguiente orden", "descubrir", "pronunciarse"],
    "pitwatch/rules/dos_panos/deal.py:compare": ["gana siempre", "ganara siempre"],
    "pitwatch/rules/dos_panos/deal.py:results": ["cesta sin"],
    "pitwatch/rules/dos_panos/deal.py:judge_deal": ["pedir", "cuadro de jugadas", "haga banco"],
    "pitwatch/rules/dos_panos/game.py": ["juego en asociacion"],
    "pitwatch/rules/dos_panos/game.py:DosPanosRound.on_bet": ["maximo de las posturas", "maximo a las posturas"],
    "pitwatch/rules/dos_panos/game.py:DosPanosRound.bank_auctioned": ["mejor postor"],
    "pitwatch/rules/dos_panos/game.py:DosPanosRound.stake_joined": ["juego en asociacion"],
    "pitwatch/rules/dos_panos/game.py:DosPanosRound._banco_checks": ["pedir banco", "juego nulo"],
    "pitwatch/rules/dos_panos/game.py:DosPanosRound._holder_checks": ["manejad", "cedid"],
    "pitwatch/rules/dos_panos/stakes.py": ["juegan a la mitad", "jugaran", "a caballo", "pedir banco", "banca limitada"],
    "pitwatch/rules/dos_panos/stakes.py:cagnotte": ["gane en los dos panos"],
    "pitwatch/rules/dos_panos/stakes.py:juego_nulo": ["juego nulo"],
    "pitwatch/rules/models/bacara_dos_panos.py": ["bacara a dos panos", "bacarra a dos panos", "caracter general"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosOptions.bank": ["banca limitada"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosOptions.bank_maximum": ["cifra maxima", "maximo y minimo de la banca"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosCagnotte.limitada": ["dos por ciento", "2 por 100"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosCagnotte.libre": ["1 25 por 100"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosCagnotte.base": ["gane en los dos panos"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosStakes.raya_fraction": ["juegan a la mitad", "jugaran"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosStakes.caballo_odd_to": ["fraccion mas fuerte"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosStakes.banco_repeats": ["juego nulo"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.decks": ["seis barajas"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.cut_cards_behind": ["10 cartas", "diez naipes"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.initial_order": ["siguiente orden"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.naturals": ["descubrir"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.natural_beats_drawn": ["gana siempre", "ganara siempre"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.punto_draws": ["pedir"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.punto_options": ["libertad"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.punto_stands": ["plantar"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosDeal.banca_draws": ["bacara", "bacarra"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosRuleset.spots": ["partes iguales", "juegan a la mitad", "jugaran",
                                                                        "pedir banco"],
    "pitwatch/rules/models/bacara_dos_panos.py:DosPanosRuleset.tableau": ["cuadro de jugadas", "tercera carta"],
    "pitwatch/schemas/dos_panos.py": ["bacara a dos panos", "bacarra a dos panos", "subastara", "misma cantidad inicial",
                                      "puesta en juego", "numerados", "juego en asociacion", "cuadro de jugadas",
                                      "siguiente orden", "cesta sin"],
    "pitwatch/schemas/dos_panos.py:BankAuctioned": ["mejor postor"],
    "pitwatch/schemas/dos_panos.py:CardsLost": ["cesta sin"],
    "pitwatch/rules/models/roulette.py": ["ruleta francesa"],
    "pitwatch/rules/models/poker.py:PokerOptions.structure": ["limitado", "bote con limite", "sin limite"],
    "pitwatch/rules/models/poker.py:PokerOptions.rake_rate": ["5 por 100"],
    "pitwatch/rules/models/poker.py:PokerVariant.hand": ["siete naipes", "dos de los cuatro", "figuras"],
    "pitwatch/rules/models/poker.py:PokerForcedBets": ["apuestas obligatorias"],
    "pitwatch/rules/models/poker.py:PokerForcedBets.small_blind": ["mitad de la apuesta minima"],
    "pitwatch/rules/models/poker.py:PokerForcedBets.big_blind": ["equivalente a la apuesta minima"],
    "pitwatch/rules/models/poker.py:PokerForcedBets.ante_max_fraction": ["mitad del minimo"],
    "pitwatch/rules/models/poker.py:PokerBetting": ["doble", "limitado"],
    "pitwatch/rules/models/poker.py:PokerBetting.raise_multiple": ["doble", "doblar"],
    "pitwatch/rules/models/poker.py:PokerBetting.fixed_limit_raises": ["tres ocasiones"],
    "pitwatch/rules/models/poker.py:PokerBetting.fixed_limit_low_streets": ["incrementos"],
    "pitwatch/rules/models/poker.py:PokerRevenue": ["beneficio"],
    "pitwatch/rules/models/poker.py:PokerRevenue.max_rake_rate": ["5 por 100"],
    "pitwatch/rules/models/poker.py:PokerRuleset._at_most_the_law": ["5 por 100"],
    "pitwatch/rules/poker/game.py": ["apuestas obligatorias", "prematuramente", "5 por 100", "prohibiciones"],
    "pitwatch/rules/edges/poker.py": ["porcentaje", "5 por 100"],
    "pitwatch/rules/poker/game.py:PokerRound.__init__": ["anadir fichas"],
    "pitwatch/rules/poker/game.py:PokerRound._blind_posters": ["ciegas", "mitad de la apuesta minima"],
    "pitwatch/rules/poker/game.py:PokerRound._shown_early": ["mostrar alguno de los naipes"],
    "pitwatch/rules/poker/game.py:PokerRound.on_movement": ["anadir fichas", "guardarse las fichas"],
    "pitwatch/rules/poker/game.py:PokerRound.on_table_event": ["prestamo"],
    "pitwatch/rules/poker/showdown.py:HAND_RULES": ["siete naipes", "dos de los cuatro"],
    "pitwatch/schemas/pokerkit_hand.py:cents_divmod": ["ficha sobrante", "ultimo envite"],
    "pitwatch/sim/poker.py": ["5 por 100", "ficha sobrante", "mitad de la apuesta minima", "doble"],
    "pitwatch/sim/poker.py:BUY_IN": ["resto inicial"],
    "pitwatch/sim/poker.py:_may_raise": ["reabrir el envite", "no generaran incremento"],
    "pitwatch/schemas/poker.py": ["marca", "apuestas obligatorias", "5 por 100"],
    "pitwatch/schemas/poker.py:FORCED_BETS": ["apuestas obligatorias"],
    "pitwatch/schemas/poker.py:POKER_ACTIONS": ["carta mas baja"],
    "pitwatch/schemas/poker.py:CardsDiscarded": ["descartarse"],
    "pitwatch/schemas/poker.py:SessionFeeTaken": ["10 y 20 por 100", "cantidad fija"],
    "pitwatch/schemas/pokerkit_hand.py:_replacements_after_discards": ["antes que el siguiente se descarte"],
    "pitwatch/schemas/phh.py": ["carta mas baja"],
    "pitwatch/rules/models/poker.py:PokerOptions.revenue": ["beneficio"],
    "pitwatch/rules/models/poker.py:PokerOptions.session_rate": ["10 y 20 por 100"],
    "pitwatch/rules/models/poker.py:PokerOptions.session_base": ["resto inicial"],
    "pitwatch/rules/models/poker.py:PokerOptions.initial_stack": ["resto inicial"],
    "pitwatch/rules/models/poker.py:PokerOptions.session_fee": ["cantidad fija"],
    "pitwatch/rules/models/poker.py:PokerRevenue.session_rate_min": ["10 y 20 por 100"],
    "pitwatch/rules/models/poker.py:PokerRevenue.session_rate_max": ["10 y 20 por 100"],
    "pitwatch/rules/models/poker.py:PokerRevenue.session_postre": ["postre"],
    "pitwatch/rules/models/poker.py:PokerVariant.players": ["minimo de cuatro"],
    "pitwatch/rules/models/poker.py:PokerVariant.first_opener": ["carta mas baja"],
    "pitwatch/rules/models/poker.py:PokerVariant.later_opener": ["combinacion de naipes mas alta", "abierto el bote"],
    "pitwatch/rules/models/poker.py:PokerVariant.suits": ["picas"],
    "pitwatch/rules/models/poker.py:PokerVariant.opening_pair": ["pareja de j"],
    "pitwatch/rules/models/poker.py:PokerVariant.max_discard": ["descartarse"],
    "pitwatch/rules/poker/game.py:PokerRound.poker_action": ["carta mas baja"],
    "pitwatch/rules/poker/variants.py:VariantRules.before_action": ["minimo de cuatro"],
    "pitwatch/rules/poker/variants.py:VariantRules.wrong_size": ["siete cartas"],
    "pitwatch/rules/poker/stud.py": ["cubiertos", "descubiertos", "cubierto", "carta mas baja", "combinacion de naipes mas alta",
                                    "como el segundo", "limite mas alto", "siete naipes", "siete cartas",
                                    "no hayan finalizado las apuestas", "mas o menos de siete"],
    "pitwatch/rules/poker/stud.py:RANKS": ["as rey"],
    "pitwatch/rules/poker/stud.py:lowest_up_card": ["carta mas baja"],
    "pitwatch/rules/poker/stud.py:best_up_cards": ["mas cercana a la mano"],
    "pitwatch/rules/poker/stud.py:StudRules.seat_card": ["no hayan finalizado las apuestas"],
    "pitwatch/rules/poker/stud.py:StudRules.before_action": ["se dara por buena"],
    "pitwatch/rules/poker/stud.py:StudRules._open_pair_limit": ["limite mas alto"],
    "pitwatch/rules/poker/draw.py": ["descarte", "cinco cubiertos", "pareja de j", "combinacion minima", "descartarse",
                                    "mano en blanco", "abierto el bote"],
    "pitwatch/rules/poker/draw.py:can_open": ["pareja de j"],
    "pitwatch/rules/poker/draw.py:DrawRules.barred": ["combinacion minima"],
    "pitwatch/rules/poker/revenue.py": ["beneficio", "5 por 100", "10 y 20 por 100", "cantidad fija", "postre"],
    "pitwatch/rules/poker/revenue.py:FORMS": ["5 por 100", "10 y 20 por 100", "cantidad fija"],
    "pitwatch/rules/poker/revenue.py:rake_rate": ["5 por 100"],
    "pitwatch/rules/poker/revenue.py:fee_due": ["10 y 20 por 100", "cantidad fija"],
    "pitwatch/rules/poker/revenue.py:table_opened": ["se fijara"],
    "pitwatch/rules/poker/revenue.py:session_closed": ["postre"],
    "pitwatch/rules/poker/showdown.py:FigurasHand": ["figuras"],
    "pitwatch/schemas/poker.py:Seat": ["puestos"],
    "pitwatch/schemas/poker.py:ButtonPlaced": ["marca"],
    "pitwatch/schemas/poker.py:StackCounted": ["restos"],
    "pitwatch/schemas/poker.py:HandShown": ["mostrar sus naipes"],
    "pitwatch/schemas/poker.py:HandMucked": ["renunciase", "renunciado"],
    "pitwatch/schemas/poker.py:RakeTaken": ["5 por 100", "beneficio"],
    "pitwatch/cli.py:law": ["pleno o numero completo"],  # the help's example: the straight-up and split lines
    "pitwatch/rules/models/roulette.py:RouletteOptions.max_tier": ["180 360 o 540 veces", "10 20 o 30 veces"],
    "pitwatch/rules/models/roulette.py:RouletteOptions.simple_chance_min_multiple": ["cinco veces el minimo autorizado"],
    "pitwatch/rules/models/roulette.py:RouletteOptions.zero_default": ["dos soluciones", "podra optar"],
    "pitwatch/rules/models/roulette.py:RouletteOptions.max_rule": ["10 20 o 30 veces", "autorizacion de funcionamiento"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts": ["conserva"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.straight": ["treinta y cinco veces"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.split": ["diecisiete veces"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.street": ["once veces"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.corner": ["ocho veces"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.sixline": ["cinco veces"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.column": ["dos veces"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.dozen": ["dos veces"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.columns": ["la mitad"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.dozens": ["la mitad"],
    "pitwatch/rules/models/roulette.py:RoulettePayouts.simple": ["ganancia asciende al valor", "ganancia la cantidad apostada"],
    "pitwatch/rules/models/roulette.py:RouletteMaxMultiples": ["10 20 o 30 veces", "012", "0123"],
    "pitwatch/rules/models/roulette.py:RouletteMaxMultiples.simple": ["180 360 o 540 veces"],
    "pitwatch/rules/models/roulette.py:RouletteLimits.simple_chance_min_multiple_max": ["cinco veces el minimo autorizado"],
    "pitwatch/rules/models/roulette.py:RouletteLimits.change_during_session": ["variar"],
    "pitwatch/rules/models/roulette.py:RouletteZero.refund_fraction": ["mitad", "50%", "reintegro"],
    "pitwatch/rules/models/roulette.py:RouletteZero.floor_basis": ["minimo de la mesa", "apuesta minima de la mesa"],
    "pitwatch/rules/models/roulette.py:RouletteZero.floor_from_zero": ["segunda"],
    # chemin de fer: the simulator's table and payments, and the association detector
    "pitwatch/sim/chemin_de_fer.py": ["seis barajas", "siete", "cien veces", "derecha", "cagnotte", "garaje",
                                      "misma cantidad", "banco seguido", "apuesta mas alta", "prioridad",
                                      "hace banco", "alternativa", "carta", "bacara", "cuadro", "una su apuesta",
                                      "chemin de fer", "tercera carta"],
    "pitwatch/sim/chemin_de_fer.py:BANK_MAX_MULTIPLE": ["cien veces"],
    "pitwatch/sim/chemin_de_fer.py:GARAGE_MIN_MULTIPLE": ["cincuenta veces"],
    "pitwatch/sim/chemin_de_fer.py:TABLEAU": ["tercera carta"],
    "pitwatch/sim/chemin_de_fer.py:MIN_PLAYERS": ["cuatro personas jugadoras"],
    "pitwatch/sim/dos_panos.py:MIN_PLAYERS": ["dos personas jugadoras por pano"],
    "pitwatch/sim/base.py:chemin_de_fer_table": ["cien veces"],
    "pitwatch/sim/baccarat.py:load_shoe": ["seis barajas", "siete", "10 cartas", "diez naipes"],
    "pitwatch/sim/payouts.py:CAGNOTTE_RATE": ["5%", "5 por 100"],
    "pitwatch/sim/payouts.py:chemin_de_fer_winner": ["ganara", "nula", "decenas"],
    "pitwatch/sim/payouts.py:chemin_de_fer_stake_payment": ["ganara", "hace banco", "garaje", "nula"],
    "pitwatch/sim/payouts.py:chemin_de_fer_bank_payment": ["deduccion", "cagnotte"],
    # bacará a dos paños: the simulator's tables and payments
    "pitwatch/sim/dos_panos.py": ["bacara a dos panos", "bacarra a dos panos", "caracter general", "10 cartas",
                                  "diez naipes", "departamento", "banca limitada", "banca libre", "subast",
                                  "abandonar", "misma cantidad inicial", "saltado", "ganancias", "banco",
                                  "prioridad", "cartas", "naipes", "primer pano", "descubri", "plantarse",
                                  "tercera carta", "bacara", "cuadro", "asociacion", "mismo sabot", "un 8"],
    "pitwatch/sim/dos_panos.py:CARDS_BEHIND_CUT": ["10 cartas", "diez naipes"],
    "pitwatch/sim/base.py:dos_panos_table": ["posturas"],
    "pitwatch/sim/base.py:DOS_PANOS_BANK_MAXIMUM": ["maximo"],
    "pitwatch/sim/payouts.py:PANOS": ["primero pano", "primer pano"],
    "pitwatch/sim/payouts.py:DOS_PANOS_CAGNOTTE_RATE": ["por ciento", "por 100"],
    "pitwatch/sim/payouts.py:RAYA_PANO": ["mitad"],
    "pitwatch/sim/payouts.py:dos_panos_parts": ["partes iguales", "mitad", "dos panos", "fraccion mas fuerte"],
    "pitwatch/sim/payouts.py:dos_panos_winner": ["ganara", "dos primeras cartas", "dos primeros naipes"],
    "pitwatch/sim/payouts.py:dos_panos_stake_payment": ["caracter general", "posturas ganadoras", "nula"],
    "pitwatch/sim/payouts.py:dos_panos_bank_payment": ["pozo", "gane en los dos panos"],
    "pitwatch/detectors/association.py": ["asociacion", "una su apuesta"],
    "pitwatch/detectors/association.py:CITATION": ["asociacion", "una su apuesta"],
}
"""``path`` (its module docstring) or ``path:name`` (a function, class, method, annotated class
field ``Class.field`` or module-level constant, with its comments and docstring) -> Spanish words,
one of which every range cited there must contain. A new citing name without words fails. Each
game's own are in :mod:`tests.rules.keywords`."""
SYMBOL_KEYWORDS = merged("SYMBOL_KEYWORDS", SYMBOL_KEYWORDS)


def _with_docstring(stmt: ast.stmt, nxt: ast.stmt | None) -> int:
    """Last line of ``stmt``, or of the string right under it (an attribute docstring)."""
    end = stmt.end_lineno or stmt.lineno
    if isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str):
        end = nxt.end_lineno or end
    return end


def _symbols(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every class and function, of every annotated
    field of a class (``Class.field``, with its ``Field(description=...)`` and the docstring under
    it), and of every module-level constant (with its comments and the docstring under it)."""
    out = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                out.append((child.lineno, child.end_lineno or child.lineno, name))
                walk(child, name + ".")
            if isinstance(child, ast.ClassDef):
                body = child.body
                for stmt, nxt in zip(body, [*body[1:], None]):
                    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                        out.append((stmt.lineno, _with_docstring(stmt, nxt), f"{prefix}{child.name}.{stmt.target.id}"))

    walk(tree, "")
    body = tree.body
    for stmt, nxt in zip(body, [*body[1:], None]):
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) else getattr(stmt, "target", None)
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and isinstance(target, ast.Name):
            out.append((stmt.lineno, _with_docstring(stmt, nxt), target.id))
    return out


def _code_citations() -> list[tuple[str, Ref]]:
    """(symbol, ref) for every citation of pitwatch/**.py: in a function, class, class field or
    module-level constant (``path:name``, the innermost one) or in the module docstring (``path``).
    Comments between module-level statements belong to none and are left to the quotation check."""
    out = []
    for path, (text, _) in SOURCES.items():
        if path.suffix != ".py":
            continue
        rel = str(path.relative_to(ROOT))
        tree = ast.parse(text)
        symbols = _symbols(tree)
        first = tree.body[0] if tree.body else None
        doc_end = first.end_lineno or 0 if isinstance(first, ast.Expr) else 0
        for start, _, refs in refs_in(text):
            line = text.count("\n", 0, start) + 1
            inside = [s for s in symbols if s[0] <= line <= s[1]]
            if inside:
                name = f"{rel}:{max(inside)[2]}"
            elif line <= doc_end:
                name = rel
            else:
                continue
            out.extend((name, ref) for ref in refs)
    return out


CODE_CITATIONS = _code_citations()


def test_every_citing_function_has_keywords():
    assert sorted({s for s, _ in CODE_CITATIONS} - set(SYMBOL_KEYWORDS)) == []
    assert sorted(set(SYMBOL_KEYWORDS) - {s for s, _ in CODE_CITATIONS}) == []


@pytest.mark.parametrize("symbol,ref", CODE_CITATIONS, ids=[f"{s}:{fmt(r)}" for s, r in CODE_CITATIONS])
def test_each_code_citation_lands_on_words_of_its_rule(symbol, ref):
    assert has_word(ref, SYMBOL_KEYWORDS[symbol]), (symbol, fmt(ref), cited(ref))
