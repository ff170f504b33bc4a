"""The coverage matrix: every game the regulations define, per jurisdiction, and how far pitwatch audits it.

:data:`SECTIONS` is the law's table, written by hand from the seeds (``pitwatch/rules/seeds/``): one
:class:`Section` per (game family, jurisdiction) a text defines, with the game id pitwatch uses (or
will use) and the line range of the section, from its heading to its last line. :data:`NOT_CHECKED`
is, per shipped ruleset, the parts of that section the engine does not judge, each with its lines,
gathered from the games' specs (each game lists its own in ``SPEC.not_checked``).
The status of a row is never written by hand: :func:`matrix` computes it from what ships (the
rulesets in ``pitwatch/rules/rulesets/``, the catalogue, each game's spec and simulator), so a game
that lands with its ruleset, spec and simulator shows up by itself. ``pitwatch docs games`` writes
the matrix at the top of ``docs/games/index.md``; ``pitwatch rulesets --coverage`` prints it.

The texts (``000`` ... ``004`` name the seed files, e.g. ``004`` is ``004_5c9c19b250457762.txt``):
Galicia ``000`` (Decreto 177/2007, ten games), Asturias ``001`` (punto y banca, with mini punto y
banca), Spain ``002`` (the state catalogue of 1979 as amended in 1984: boule, treinta y cuarenta,
dados o craps), Andalucía ``004`` (eighteen sections, seventeen families counting the abreviada
variant with French roulette). ``003`` is a fragment of a regional regulation that names neither
its region nor its date: the end of treinta y cuarenta's procedure (003 L1-L7) and the first
articles of dados o craps (003 L9-L42, articles 29-32, cut off within article 32). It defines no
row of its own (no jurisdiction could be named for a ruleset, and no game is whole in it). Its
words are the state catalogue's, sentence by sentence (002 L121-L129 and 002 L131-L175, with
«crupier» for «croupier» and articles for numbered parts), so it is cited beside the ``espana``
rows of those two games as a parallel text (:attr:`Section.also`): an ``espana`` ruleset written
from 002 judges what 003 says as well.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass

from pitwatch.catalogue import ENTRIES
from pitwatch.rules.base import RULESETS_DIR, list_rulesets
from pitwatch.rules.spec import Gap

AUDITED = "audited end to end"
"""Status of a row whose ruleset ships, whose game the catalogue has with a spec whose simulator
module imports, and whose section has nothing listed as not checked."""
PARTLY = "partly"
"""Status of a row whose ruleset ships but where something of the section is not checked (listed)."""
NOT_YET = "not yet"
"""Status of a row for which no ruleset ships (or whose game the engine cannot load)."""

JURISDICTIONS: dict[str, str] = {
    "galicia": "000",
    "asturias": "001",
    "espana": "002",
    "andalucia": "004",
}
"""Jurisdiction -> the seed its rows cite, in the order of the matrix's columns."""

SEEDS_DIR = RULESETS_DIR.parent / "seeds"
"""The regulations' texts (``pitwatch/rules/seeds/``)."""

TEXTS: dict[str, str] = {
    "000": "Galicia, Decreto 177/2007 (catalogue of casino games, annex)",
    "001": "Asturias, Resolución de 10 de junio de 2011 (punto y banca)",
    "002": "Spain, Orden Ministerial de 9 de octubre de 1979 (catalogue of games), as amended in 1984",
    "003": "a fragment of an unnamed regional regulation (articles 29-32; beside the espana rows)",
    "004": "Andalucía, Orden de 4 de febrero de 2010 (Catálogo de juegos)",
}
"""Seed code -> the instrument it holds (``pitwatch/rules/seeds/README.md``)."""

_RANGES = re.compile(r"L(\d+)(?:-L(\d+))?")


def seed_file(code: str) -> str:
    """The seed file of ``code`` (``"004"`` -> ``"004_5c9c19b250457762.txt"``). Raises ``KeyError`` for
    a code no shipped seed has."""
    found = sorted(p.name for p in SEEDS_DIR.glob(f"{code}_*.txt"))
    if len(found) != 1:
        raise KeyError(f"no single seed file {code}_*.txt in pitwatch/rules/seeds ({found})")
    return found[0]


def ranges(citation: str) -> list[tuple[str, int, int]]:
    """``[(seed code, first line, last line), ...]`` of a short citation: the seed's three digits then
    one or more ranges, ``"004 L807-L848"`` or ``"000 L777, L783"``. Raises ``ValueError`` on any other
    form."""
    code, _, rest = citation.partition(" ")
    found = [(code, int(a), int(b or a)) for a, b in _RANGES.findall(rest)]
    if not re.fullmatch(r"\d{3}", code) or not found:
        raise ValueError(f"not a citation of the form '004 L807-L848': {citation!r}")
    return found


@dataclass(frozen=True)
class Section:
    """One game of one regulation: the ``family`` (its name), ``game`` (pitwatch's game id, the
    ruleset's ``<game>``), ``jurisdiction`` (the ruleset's ``<jurisdiction>``), ``citation`` (the
    section, ``"004 L570-L901"``: its heading line to its last line), ``heading`` (the heading as
    printed, without the Markdown emphasis of the 000 text), ``also`` (other lines of another text
    or place that belong to it, each ``"003 L9-L42 (why)"``)."""

    family: str
    game: str
    jurisdiction: str
    citation: str
    heading: str
    also: tuple[str, ...] = ()

    @property
    def ruleset(self) -> str:
        """The id of the ruleset that encodes (or will encode) this section: ``<game>.<jurisdiction>``."""
        return f"{self.game}.{self.jurisdiction}"

    @property
    def cited(self) -> str:
        """The section as ``FILE Lstart-Lend (heading)``, the seed's full file name."""
        code, first, last = ranges(self.citation)[0]
        return f"{seed_file(code)} L{first}-L{last} ({self.heading})"


SECTIONS: tuple[Section, ...] = (
    # Galicia, Decreto 177/2007, annex: ten games, each «NN. Name.» to the line before the next.
    Section("French roulette", "french_roulette", "galicia", "000 L81-L193", "01. Ruleta francesa."),
    Section("American roulette", "american_roulette", "galicia", "000 L195-L233", "02. Ruleta americana.",
            also=("000 L81-L193 (01. Ruleta francesa, whose rules apply where 02 is silent: 000 L199)",)),
    Section("Blackjack", "blackjack", "galicia", "000 L235-L329", "03. Veintiuno o black-jack."),
    Section("Boule", "boule", "galicia", "000 L331-L377", "04. Bola o boule."),
    Section("Treinta y cuarenta", "treinta_y_cuarenta", "galicia", "000 L379-L425", "05. Treinta y cuarenta."),
    Section("Punto y banca", "punto_banca", "galicia", "000 L427-L522", "06. Punto y banca."),
    Section("Chemin de fer", "chemin_de_fer", "galicia", "000 L524-L741",
            "07. Ferrocarril, bacará o chemin de fer."),
    Section("Bacará a dos paños", "bacara_dos_panos", "galicia", "000 L743-L885", "08. Bacará a dos paños."),
    Section("Craps", "craps", "galicia", "000 L887-L1051", "09. Dados o craps."),
    Section("Wheel of fortune", "wheel_of_fortune", "galicia", "000 L1053-L1097", "10. Ruleta de la fortuna."),
    # Asturias, Resolución de 10 de junio de 2011: the annex, punto y banca with E) mini punto y banca.
    Section("Punto y banca", "punto_banca", "asturias", "001 L69-L188",
            "REGLAS PARA LA PRACTICA DEL JUEGO DENOMINADO “PUNTO Y BANCA”"),
    # Spain, Orden Ministerial de 9 de octubre de 1979 (1984): the three games of the text; 003 beside two.
    Section("Boule", "boule", "espana", "002 L9-L63", "04. Boule o bola."),
    Section("Treinta y cuarenta", "treinta_y_cuarenta", "espana", "002 L65-L129", "05. Treinta y cuarenta.",
            also=("003 L1-L7 (a regional fragment: the same procedure, 002 L121-L129)",)),
    Section("Craps", "craps", "espana", "002 L131-L279", "06. Dados o Craps.",
            also=("003 L9-L42 (a regional fragment: SECCIÓN 6. DADOS O CRAPS, articles 29-32, "
                  "the words of 002 L131-L175)",)),
    # Andalucía, Orden de 4 de febrero de 2010, Catálogo I.1: from each heading to the line before the next.
    Section("French roulette", "french_roulette", "andalucia", "004 L109-L439", "I.1.1.A) RULETA FRANCESA ORDINARIA"),
    Section("French roulette (abreviada)", "french_roulette_abreviada", "andalucia", "004 L441-L454",
            "I.1.1.B) RULETA FRANCESA ABREVIADA",
            also=("004 L109-L439 (I.1.1.A, whose elements, staff and rules apply but for the layout: 004 L443-L446)",)),
    Section("American roulette", "american_roulette", "andalucia", "004 L456-L568",
            "I.1.2. RULETA AMERICANA CON UN SOLO CERO",
            also=("004 L109-L439 (I.1.1.A, whose principles and rules of play apply: 004 L459-L464, L564-L568)",)),
    Section("Blackjack", "blackjack", "andalucia", "004 L570-L901", "I.1.3. VEINTIUNO O «BLACK JACK»"),
    Section("Boule", "boule", "andalucia", "004 L903-L1027", "I.1.4. BOLA O «BOULE»"),
    Section("Treinta y cuarenta", "treinta_y_cuarenta", "andalucia", "004 L1029-L1176", "I.1.5. TREINTA Y CUARENTA"),
    Section("Craps", "craps", "andalucia", "004 L1178-L1515", "I.1.6. DADOS O CRAPS"),
    Section("Punto y banca", "punto_banca", "andalucia", "004 L1517-L1754", "I.1.7. PUNTO Y BANCA",
            also=("004 L1842-L1888 (its VII. Desarrollo del juego, printed inside I.1.8.A)",)),
    Section("Chemin de fer", "chemin_de_fer", "andalucia", "004 L1758-L2458", "I.1.8.A) FERROCARRIL O CHEMIN DE FER"),
    Section("Bacará a dos paños", "bacara_dos_panos", "andalucia", "004 L2460-L2903",
            "I.1.8.B. «BACARRÁ» A DOS PAÑOS"),
    Section("Póquer sin descarte", "poker_sin_descarte", "andalucia", "004 L2907-L3298",
            "I.1.9.A. PÓQUER SIN DESCARTE"),
    Section("Trijoker", "trijoker", "andalucia", "004 L3300-L3539", "I.1.9.B. «TRIJOKER»"),
    Section("Tripóquer", "tripoquer", "andalucia", "004 L3541-L3737", "I.1.9.C. TRIPÓQUER"),
    Section("Pai gow póquer", "pai_gow_poker", "andalucia", "004 L3739-L4147", "I.1.9.D). PAI GOW PÓQUER"),
    Section("Póquer en círculo", "poker", "andalucia", "004 L4149-L5663", "I.1.10. PÓQUER EN CÍRCULO"),
    Section("Wheel of fortune", "wheel_of_fortune", "andalucia", "004 L5665-L5796", "I.1.11. RUEDA DE LA FORTUNA"),
    Section("Casino monte", "casino_monte", "andalucia", "004 L5798-L6020", "I.1.12. CASINO MONTE"),
    Section("Monte o banca", "monte_banca", "andalucia", "004 L6022-L6269", "I.1.13. MONTE O BANCA"),
)
"""The law's table: one row per (game family, jurisdiction) the seeds define, in the order of the
texts. ``citation`` runs from the section's heading to its last line before the next heading (or the
end of the text); Andalucía's I.1.8 and I.1.9 open with a heading of their own (004 L1756, L2905)
before the first game under them."""


def not_checked() -> dict[str, tuple[Gap, ...]]:
    """Ruleset id (``<game>.<jurisdiction>``) -> the parts of its section the engine does not judge,
    gathered from every catalogued game's spec (:attr:`pitwatch.rules.spec.GameSpec.not_checked`), in
    catalogue order. A game whose spec does not load adds nothing (its rows say why)."""
    from pitwatch.rules.registry import spec

    out: dict[str, tuple[Gap, ...]] = {}
    for game in ENTRIES:
        try:
            sp = spec(game)
        except (ImportError, TypeError, ValueError):
            continue
        out.update({f"{sp.game}.{j}": tuple(gaps) for j, gaps in sp.not_checked.items()})
    return out


NOT_CHECKED: dict[str, tuple[Gap, ...]] = not_checked()
"""Shipped ruleset -> the parts of its section the engine does not judge, computed from the games'
specs (:func:`not_checked`; each game writes its own in its ``SPEC``). A ruleset with no entry here
has not been reviewed: its row says so (:data:`UNREVIEWED`); an empty tuple says nothing is left
out."""

UNREVIEWED = "not reviewed yet: the game's spec (GameSpec.not_checked) has no list for this jurisdiction"
"""The gap of a shipped ruleset with no :data:`NOT_CHECKED` entry."""


@dataclass(frozen=True)
class Row:
    """One row of the matrix: the ``section``, its ``status`` (:data:`AUDITED`, :data:`PARTLY` or
    :data:`NOT_YET`), ``ruleset`` (its id when it ships, else ``None``) and ``not_checked``: the
    :data:`NOT_CHECKED` gaps, then what the platform lacks for it (no simulator, not reviewed) as
    ``(what, citation or "")``."""

    section: Section
    status: str
    ruleset: str | None
    not_checked: tuple[tuple[str, str], ...]


def _engine_gap(game: str) -> tuple[str | None, str | None]:
    """``(why the engine cannot judge game, why it is not simulated)``: ``None`` where it can / is."""
    if game not in ENTRIES:
        return f"the catalogue has no game {game!r}", None
    from pitwatch.rules.registry import spec

    try:
        sp = spec(game)
    except (ImportError, TypeError, ValueError) as exc:
        return f"the spec of {game!r} does not load ({exc})", None
    try:
        importlib.import_module(sp.simulator)
    except ImportError as exc:
        return None, f"no simulator: {sp.simulator} does not import ({exc.__class__.__name__})"
    return None, None


def row(section: Section, shipped: set[str]) -> Row:
    """The matrix row of ``section`` given the ids of the ``shipped`` rulesets (status rules: module
    docstring and :data:`AUDITED`, :data:`PARTLY`, :data:`NOT_YET`). Imports the game's spec and
    simulator modules."""
    if section.ruleset not in shipped:
        return Row(section, NOT_YET, None, ())
    broken, unsimulated = _engine_gap(section.game)
    if broken is not None:
        return Row(section, NOT_YET, section.ruleset, ((broken, ""),))
    gaps: list[tuple[str, str]] = [(g.what, g.citation) for g in NOT_CHECKED.get(section.ruleset, ())]
    if section.ruleset not in NOT_CHECKED:
        gaps.append((UNREVIEWED, ""))
    if unsimulated is not None:
        gaps.append((unsimulated, ""))
    return Row(section, PARTLY if gaps else AUDITED, section.ruleset, tuple(gaps))


def matrix() -> list[Row]:
    """Every row of :data:`SECTIONS` with its status, computed from the rulesets that ship
    (:func:`pitwatch.rules.base.list_rulesets`), in the order of :data:`SECTIONS`."""
    shipped = set(list_rulesets())
    return [row(s, shipped) for s in SECTIONS]


def problems() -> list[str]:
    """What does not match between the hand-written tables and what ships, one sentence each: a
    shipped ruleset no row of :data:`SECTIONS` stands for, a :data:`NOT_CHECKED` entry for a ruleset
    that does not ship, a row whose ``(game, jurisdiction)`` is written twice. Empty when they agree."""
    shipped = list_rulesets()
    ids = [s.ruleset for s in SECTIONS]
    out = [f"ruleset {rid} ships but no row of SECTIONS stands for it" for rid in shipped if rid not in ids]
    out += [f"NOT_CHECKED lists {rid}, which does not ship" for rid in NOT_CHECKED if rid not in shipped]
    out += [f"SECTIONS has {rid} twice" for rid in sorted({i for i in ids if ids.count(i) > 1})]
    return out


def families() -> list[str]:
    """The family names of :data:`SECTIONS`, each once, in order of first appearance (Galicia's
    annex first, then the families only the later texts define)."""
    return list(dict.fromkeys(s.family for s in SECTIONS))


def grid(rows: list[Row] | None = None) -> list[tuple[str, dict[str, Row]]]:
    """``(family, {jurisdiction: row})`` per family (:func:`families` order), for the family ×
    jurisdiction table; a jurisdiction whose text does not define the family is absent."""
    chosen = matrix() if rows is None else rows
    out: dict[str, dict[str, Row]] = {f: {} for f in families()}
    for r in chosen:
        out[r.section.family][r.section.jurisdiction] = r
    return list(out.items())


__all__ = ["AUDITED", "JURISDICTIONS", "NOT_CHECKED", "NOT_YET", "PARTLY", "SECTIONS", "SEEDS_DIR", "TEXTS",
           "UNREVIEWED", "Gap", "Row", "Section", "families", "grid", "matrix", "not_checked", "problems", "ranges",
           "row", "seed_file"]
