"""The monthly report's words in Spanish (the default: the regulator's language) and English.

:data:`LABELS` maps a key to its ``(es, en)`` text; :func:`labels` gives one language's mapping.
:data:`NAMES` gives the words of the codes the data carries (games, alert kinds, severities, states
and dispositions, jurisdictions); :func:`namer` looks them up in one language (an unknown code is
shown as it is). The
CSV files keep English snake_case column names in both languages (a spreadsheet's import does not
change with the reader's language); their meaning is documented in ``docs/monthly-report.md``.
"""

from __future__ import annotations

from typing import Any, Callable

from pitwatch.catalogue import JURISDICTIONS
from pitwatch.rules.registry import specs

LANGS = ("es", "en")

LABELS: dict[str, tuple[str, str]] = {
    "title": ("Informe mensual de juegos de mesa", "Monthly table-games report"),
    "casino": ("Casino", "Casino"),
    "month": ("Mes", "Month"),
    "gaming_days": ("Días de juego", "Gaming days"),
    "gaming_days_note": ("de 06:00 a 06:00, hora de Madrid", "06:00 to 06:00, Madrid time"),
    "as_of": ("Estado de las alertas a", "Alert states as of"),
    "rulesets": ("Reglamentos aplicados (versión)", "Rulesets applied (version)"),
    "ruleset_id": ("Reglamento", "Ruleset"),
    "ruleset_hash": ("Huella SHA-256 del reglamento", "Ruleset SHA-256"),
    "jurisdiction": ("Comunidad", "Jurisdiction"),
    "events": ("Eventos de origen", "Source events"),
    "event_count": ("Número de eventos", "Number of events"),
    "first_event": ("Primer evento (UTC)", "First event (UTC)"),
    "last_event": ("Último evento (UTC)", "Last event (UTC)"),
    "digest": ("SHA-256 de los datos del informe", "SHA-256 of the report data"),
    "digest_note": ("Cualquiera puede volver a derivar el informe de los mismos eventos y comparar esta huella.",
                    "Anyone can re-derive the report from the same events and compare this digest."),
    "by_table": ("Por mesa", "By table"),
    "by_game": ("Por juego", "By game"),
    "table": ("Mesa", "Table"),
    "game": ("Juego", "Game"),
    "days_open": ("Días abierta", "Days open"),
    "days_note": ("Días abierta de un juego: días de mesa (suma de sus mesas).",
                  "A game's days open are table-days (the sum over its tables)."),
    "bets": ("Apuestas", "Bets"),
    "drop": ("Efectivo cambiado (drop)", "Drop"),
    "handle": ("Apostado (handle)", "Handle"),
    "win": ("Resultado (win)", "Win"),
    "hold_percent": ("Retención % (hold)", "Hold %"),
    "theoretical_win": ("Resultado teórico", "Theoretical win"),
    "sd": ("σ", "σ"),
    "deviation_sd": ("Desviación (σ)", "Deviation (σ)"),
    "band": ("Banda 95 %", "95% band"),
    "outside_band": ("fuera de la banda del 95 %", "outside the 95% band"),
    "commission": ("Comisiones, rake y cagnotte", "Commissions, rake and cagnotte"),
    "win_per_handle": ("Resultado / apostado %", "Win / handle %"),
    "session_fees": ("Cuotas de sesión", "Session fees"),
    "revenue_check": ("Resultado − (rake + cagnotte)", "Win − (rake + cagnotte)"),
    "peer_note": ("Juegos de círculo (póquer en círculo, chemin de fer, bacará a dos paños): las personas "
                  "juegan entre sí y el casino no participa en el juego (004 L82-L89); no se da resultado "
                  "teórico, σ ni banda. Su ingreso es el rake, la cagnotte y las cuotas de sesión (columna "
                  "«Comisiones, rake y cagnotte»), y «Resultado − (rake + cagnotte)» debe ser 0,00: lo que las "
                  "apuestas dejaron a la casa es lo que entró en la cagnotte. En un total, el resultado teórico y "
                  "la desviación son los de los juegos de contrapartida.",
                  "Player-against-player games (póquer en círculo, chemin de fer, bacará a dos paños): the "
                  "players play against each other and the casino takes no part (004 L82-L89); no theoretical "
                  "win, σ or band is given. Their revenue is the rake, the cagnotte and the session fees (column "
                  "«Commissions, rake and cagnotte»), and «Win − (rake + cagnotte)» must be 0.00: what the bets "
                  "left with the house is what went into the cagnotte. In a total, the theoretical win and the "
                  "deviation are those of the house-banked games."),
    "limit_breaches": ("Infracciones de límites", "Limit breaches"),
    "limits": ("Límites en vigor e infracciones", "Limits in force and breaches"),
    "min_bet": ("Mínimo", "Minimum"),
    "max_bet": ("Máximo", "Maximum"),
    "in_force_from": ("En vigor desde (UTC)", "In force from (UTC)"),
    "below_minimum": ("Por debajo del mínimo", "Below the minimum"),
    "above_maximum": ("Por encima del máximo", "Above the maximum"),
    "limits_note": ("Límites fijados en la apertura de la mesa o en un cambio de límites; cada infracción "
                    "cuenta con los límites vigentes cuando se detectó.",
                    "Limits set at the table's opening or by a limits change; each breach counts under the "
                    "limits in force when it was detected."),
    "chain_head": ("Cabeza de la cadena de eventos", "Event chain head"),
    "chain_note": ("Último evento del mes de la cadena de hashes de la mesa (seq y SHA-256): quien guarde este "
                   "informe puede comprobar después que el almacén no se ha editado con «pitwatch verify --table "
                   "MESA --head SEQ:HASH».",
                   "The last event of the month in the table's hash chain (seq and SHA-256): whoever keeps this "
                   "report can later prove the warehouse was not edited with «pitwatch verify --table TABLE "
                   "--head SEQ:HASH»."),
    "chain_events": ("eventos encadenados", "linked events"),
    "nil_return": ("Declaración negativa", "Nil return"),
    "nil_return_text": ("El casino {casino} no tuvo actividad de juegos de mesa en {month}: sin mesas abiertas, "
                        "sin apuestas y sin eventos registrados (sin actividad).",
                        "Casino {casino} had no table-games activity in {month}: no table open, no bet and no "
                        "event recorded (no activity)."),
    "tips": ("Propinas", "Tips"),
    "fills": ("Reposiciones (fills)", "Fills"),
    "credits": ("Retiradas (credits)", "Credits"),
    "float_difference": ("Dif. de anticipo", "Float diff."),
    "periods": ("Mes, tres meses anteriores y año", "Month, previous three months and year"),
    "period": ("Periodo", "Period"),
    "ggr_ytd": ("Ingresos brutos del juego, año hasta la fecha (base imponible)",
                "Gross gaming income, year to date (tax base)"),
    "alerts": ("Alertas", "Alerts"),
    "alerts_total": ("Alertas del mes", "Alerts of the month"),
    "by_kind": ("Por tipo", "By kind"),
    "kind": ("Tipo", "Kind"),
    "severity": ("Gravedad", "Severity"),
    "count": ("Número", "Count"),
    "amount": ("Importe", "Amount"),
    "by_disposition": ("Por estado y resolución", "By state and disposition"),
    "state": ("Estado", "State"),
    "open_over_7_days": ("Alertas abiertas con más de 7 días", "Open alerts older than 7 days"),
    "alert_id": ("Alerta", "Alert"),
    "detected_at": ("Detectada (UTC)", "Detected (UTC)"),
    "age_days": ("Antigüedad (días)", "Age (days)"),
    "more_in_csv": ("y {n} más (todas en el CSV)", "and {n} more (all in the CSV)"),
    "median_ack": ("Mediana hasta el reconocimiento (min)", "Median time to acknowledge (min)"),
    "median_close": ("Mediana hasta el cierre (min)", "Median time to close (min)"),
    "acknowledged": ("Reconocidas", "Acknowledged"),
    "closed": ("Cerradas", "Closed"),
    "rejected": ("Mensajes rechazados", "Rejected messages"),
    "quarantined": ("Eventos en cuarentena", "Quarantined events"),
    "charts": ("Gráficos", "Charts"),
    "chart_win": ("Resultado diario frente al teórico, por juego (€)", "Daily win vs theoretical, by game (€)"),
    "chart_alerts": ("Alertas por día de juego", "Alerts per gaming day"),
    "none": ("ninguno", "none"),
    "total": ("Total", "Total"),
    "theo_short": ("teórico", "theo"),
    "band_note": ("σ: raíz de la suma de las varianzas de las apuestas según su reglamento; fuera de ±1,96 σ "
                  "el resultado queda fuera de la banda del 95 %.",
                  "σ: square root of the sum of the bets' variances under their ruleset; beyond ±1.96 σ the "
                  "win is outside its 95% band."),
    "generated_by": ("Generado por pitwatch a partir del almacén de datos.", "Generated by pitwatch from the warehouse."),
}
"""Every label, ``key -> (es, en)``."""

NAMES: dict[str, dict[str, tuple[str, str]]] = {
    "game": {sp.game: sp.names for sp in specs()},
    "kind": {
        "payout_discrepancy": ("Pago incorrecto", "Payout discrepancy"),
        "unknown_bet_settled": ("Pago de una apuesta inexistente", "Unknown bet settled"),
        "bet_below_minimum": ("Apuesta por debajo del mínimo", "Bet below the minimum"),
        "bet_above_maximum": ("Apuesta por encima del máximo", "Bet above the maximum"),
        "invalid_bet": ("Apuesta no válida", "Invalid bet"),
        "past_posting": ("Apuesta tardía (past posting)", "Past posting"),
        "dealer_misdraw": ("Error de reparto del croupier", "Dealer misdraw"),
        "illegal_decision": ("Decisión no permitida", "Illegal decision"),
        "spin_direction": ("Sentido de giro incorrecto", "Spin direction"),
        "procedure": ("Infracción de procedimiento", "Procedure"),
        "sequence_gap": ("Hueco en la secuencia de eventos", "Sequence gap"),
        "duplicate_event": ("Evento duplicado", "Duplicate event"),
        "rejected_event": ("Evento rechazado", "Rejected event"),
        "table_quarantined": ("Mesa en cuarentena", "Table quarantined"),
        "quarantine_released": ("Cuarentena levantada", "Quarantine released"),
        "float_discrepancy": ("Descuadre del anticipo", "Float discrepancy"),
        "dealer_player_collusion": ("Connivencia croupier-jugador", "Dealer-player collusion"),
        "rake_discrepancy": ("Descuadre del rake o la cagnotte", "Rake discrepancy"),
        "prohibited_play": ("Juego prohibido", "Prohibited play"),
        "chip_dumping": ("Traspaso de fichas (chip dumping)", "Chip dumping"),
        "soft_play": ("Juego blando concertado (soft play)", "Soft play"),
        "whipsaw": ("Acoso concertado (whipsaw)", "Whipsaw"),
        "association": ("Asociación entre jugadores", "Association"),
    },
    "severity": {
        "critical": ("crítica", "critical"), "high": ("alta", "high"), "medium": ("media", "medium"),
        "low": ("baja", "low"),
    },
    "state": {
        "open": ("abierta", "open"), "acknowledged": ("reconocida", "acknowledged"),
        "escalated": ("elevada", "escalated"), "closed": ("cerrada", "closed"),
        "confirmed_violation": ("infracción confirmada", "confirmed violation"),
        "dealer_error_corrected": ("error del croupier corregido", "dealer error corrected"),
        "false_positive": ("falso positivo", "false positive"), "duplicate": ("duplicada", "duplicate"),
        "referred": ("remitida", "referred"), "None": ("sin resolución", "no disposition"),
    },
    "jurisdiction": {j.id: j.names for j in JURISDICTIONS},
}
"""The words of the data's codes per kind of code: ``kind -> code -> (es, en)``."""


def labels(lang: str) -> dict[str, str]:
    """The labels in ``lang`` (``es`` or ``en``). Raises ``ValueError`` for another language."""
    if lang not in LANGS:
        raise ValueError(f"--lang must be es or en, not {lang!r}")
    i = LANGS.index(lang)
    return {k: v[i] for k, v in LABELS.items()}


def namer(lang: str) -> Callable[[str, Any], str]:
    """``name(kind, code)`` in ``lang``: the word of ``code`` among :data:`NAMES` ``[kind]`` (a state
    ``closed: <disposition>`` as «cerrada: <its word>»), or the code itself when it has none. Raises
    ``ValueError`` for another language."""
    if lang not in LANGS:
        raise ValueError(f"--lang must be es or en, not {lang!r}")
    i = LANGS.index(lang)

    def name(kind: str, code: Any) -> str:
        text = "" if code is None else str(code)
        if kind == "state" and ": " in text:
            head, tail = text.split(": ", 1)
            return f"{name('state', head)}: {name('state', tail)}"
        words = NAMES[kind].get(text)
        return text if words is None else words[i]
    return name


__all__ = ["LABELS", "LANGS", "NAMES", "labels", "namer"]
