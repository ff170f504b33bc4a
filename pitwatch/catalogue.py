"""The catalogue of games: one :class:`GameEntry` per game family pitwatch audits.

This is the one list of games. Everything that needs to know the games reads it: the event contract
(:mod:`pitwatch.schemas`: the ``game`` values, each game's own event types and spot words), the rules
engine (:mod:`pitwatch.rules.registry` loads each entry's :class:`~pitwatch.rules.spec.GameSpec`: its round,
ruleset model, house edges, labels, simulator), the simulator, the docs, the reports and the dashboards.
Adding a game is its package under ``pitwatch/rules/``, its rulesets, its simulator module, its docs and
one entry here (``docs/adding-a-game.md``).

The module is plain data and imports nothing of pitwatch, so every layer can read it: the schemas
layer reads the names and the spot words here and imports a game's ``events`` module (which itself
imports only :mod:`pitwatch.schemas`) without importing the rules engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameEntry:
    """One game family in the catalogue.

    ``game``: the game id (the events' ``game`` value and the rulesets' ``game`` key, e.g.
    ``"boule"``). ``spec``: the module holding the game's ``SPEC``
    (:class:`pitwatch.rules.spec.GameSpec`). ``events``: the module holding the event types only
    this game uses (its ``EVENT_TYPES`` tuple; it may import only :mod:`pitwatch.schemas`), or
    ``None``. ``spot_words``: bare-word spot codes only this game uses (``"bolsa"``);
    ``spot_arity``: its ``kind:N-M`` spot kinds and how many numbers each takes; ``hand_words``: its
    hand ids that are a word. The spot and hand grammar of the event contract is the union of every
    entry's (:mod:`pitwatch.schemas.codes`). ``compiled``: the game's modules mypyc compiles with the
    engine's fold (:mod:`pitwatch.native`: its round, and what the round calls per event); they must
    import only compiled or plain modules and keep to what mypyc compiles (no class attributes assigned
    after the class, no decorators on methods). A game without them runs interpreted: the same
    verdicts, slower."""

    game: str
    spec: str
    events: str | None = None
    spot_words: tuple[str, ...] = ()
    spot_arity: dict[str, int] = field(default_factory=dict)
    hand_words: tuple[str, ...] = ()
    compiled: tuple[str, ...] = ()


CATALOGUE: tuple[GameEntry, ...] = (
    GameEntry("french_roulette", "pitwatch.rules.roulette", compiled=("pitwatch.rules.roulette",),
              spot_words=("red", "black", "even", "odd", "manque", "passe"),
              spot_arity={"straight": 1, "column": 1, "dozen": 1, "split": 2, "columns": 2, "dozens": 2,
                          "street": 3, "corner": 4, "sixline": 6}),
    GameEntry("french_roulette_abreviada", "pitwatch.rules.french_roulette_abreviada.spec",
              compiled=("pitwatch.rules.french_roulette_abreviada.game",),
              spot_arity={"straight": 1, "split": 2, "street": 3, "corner": 4, "sixline": 6}),
    GameEntry("blackjack", "pitwatch.rules.blackjack", spot_words=("main", "bolsa"), hand_words=("dealer",),
              compiled=("pitwatch.rules.blackjack",)),
    GameEntry("punto_banca", "pitwatch.rules.baccarat", spot_words=("punto", "banca", "tie"),
              hand_words=("punto", "banca"), compiled=("pitwatch.rules.baccarat",)),
    GameEntry("poker", "pitwatch.rules.poker.game", events="pitwatch.schemas.poker", hand_words=("board",)),
    GameEntry("chemin_de_fer", "pitwatch.rules.chemin_de_fer.game", events="pitwatch.schemas.chemin_de_fer",
              spot_words=("punto", "banco", "banco_seguido", "banco_con_la_mesa", "ultimo_completo"),
              hand_words=("punto", "banca")),
    GameEntry("bacara_dos_panos", "pitwatch.rules.dos_panos.game", events="pitwatch.schemas.dos_panos",
              spot_words=("pano1", "pano2", "a_caballo", "pano1_raya", "pano2_raya", "banco"),
              hand_words=("pano1", "pano2", "banca")),
    GameEntry("american_roulette", "pitwatch.rules.american_roulette.spec",
              events="pitwatch.rules.american_roulette.events", compiled=("pitwatch.rules.american_roulette.game",)),
    GameEntry("wheel_of_fortune", "pitwatch.rules.wheel_of_fortune.spec",
              events="pitwatch.rules.wheel_of_fortune.events", compiled=("pitwatch.rules.wheel_of_fortune.game",),
              spot_words=("fortune_24", "fortune_15", "fortune_7", "fortune_4", "fortune_2", "fortune_joker_red",
                          "fortune_joker_black", "fortune_figure_1", "fortune_figure_2")),
    GameEntry("boule", "pitwatch.rules.boule.spec", spot_words=("red", "black", "even", "odd", "manque", "passe"),
              spot_arity={"straight": 1}, compiled=("pitwatch.rules.boule.game",)),
)
"""Every game family, in the order of the README's list of games."""

GAME_IDS: tuple[str, ...] = tuple(e.game for e in CATALOGUE)
"""The game ids, in catalogue order."""

ENTRIES: dict[str, GameEntry] = {e.game: e for e in CATALOGUE}
"""Game id -> its entry."""


@dataclass(frozen=True)
class Jurisdiction:
    """A jurisdiction whose regulation pitwatch ships: ``id`` (the rulesets' ``jurisdiction`` and the second
    part of their ids, ``"galicia"``), ``names`` (Spanish, English) for the reports, ``seeds`` the files of
    its regulation's text in ``pitwatch/rules/seeds/`` a ruleset of it may cite as its ``seed``, and
    ``casino`` the simulator's casino there (:func:`pitwatch.sim.base.catalogue_tables`)."""

    id: str
    names: tuple[str, str]
    seeds: tuple[str, ...]
    casino: str


JURISDICTIONS: tuple[Jurisdiction, ...] = (
    Jurisdiction("galicia", ("Galicia", "Galicia"), ("000_e1555249d49967be.txt",), "gal-coruna"),
    Jurisdiction("asturias", ("Asturias", "Asturias"), ("001_a05972482385336a.txt",), "ast-gijon"),
    Jurisdiction("espana", ("España", "Spain"), ("002_b26436a6fc4fb8e8.txt", "003_a1f1518fcae469ac.txt"),
                 "esp-madrid"),
    Jurisdiction("andalucia", ("Andalucía", "Andalusia"), ("004_5c9c19b250457762.txt",), "and-marbella"),
)
"""Every jurisdiction of the shipped seeds (``espana``: the state catalogue of 1979 and the regional
fragment that follows it). Adding one is its seed files and one line here."""

JURISDICTION_IDS: dict[str, Jurisdiction] = {j.id: j for j in JURISDICTIONS}
"""Jurisdiction id -> its entry."""


def entry(game: str) -> GameEntry:
    """The catalogue entry of ``game``. Raises ``KeyError`` naming the known games for any other."""
    try:
        return ENTRIES[game]
    except KeyError:
        raise KeyError(f"unknown game {game!r} (known: {', '.join(GAME_IDS)})") from None


__all__ = ["CATALOGUE", "ENTRIES", "GAME_IDS", "JURISDICTIONS", "JURISDICTION_IDS", "GameEntry", "Jurisdiction",
           "entry"]
