"""What morale leaves on the round: the triggers the GM has answered (checked or passed
over), so each is offered once (002 "Morale"; the rules are :mod:`core.rules.morale`).

>>> trigger = MoraleTrigger(side=Side.OPPOSITION, kind=TriggerKind.CASUALTIES, percent=50)
>>> trigger.key, trigger.describe()
('opposition/casualties-50', '50% of the opposition down')
>>> MoraleTrigger.from_key("opposition/leader-down/ogre").leader
'ogre'
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.model.combatant import Side


class TriggerKind(StrEnum):
    """002 Morale: "Obviously heavily outgunned after an initial clash", "50% casualties",
    "75% casualties", "Leader killed"."""

    OUTNUMBERED = "outnumbered"
    CASUALTIES = "casualties"
    LEADER_DOWN = "leader-down"


class MoraleTrigger(BaseModel):
    """One occasion for a side's morale check: ``percent`` names a casualty threshold,
    ``leader`` the token id of a fallen leader."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: Side
    kind: TriggerKind
    percent: int | None = Field(None, ge=1, le=100)
    leader: str | None = Field(None, max_length=60)

    @model_validator(mode="after")
    def _detail_fits_kind(self) -> MoraleTrigger:
        if (self.percent is not None) != (self.kind is TriggerKind.CASUALTIES):
            raise ValueError("percent goes with a casualties trigger, and only there")
        if (self.leader is not None) != (self.kind is TriggerKind.LEADER_DOWN):
            raise ValueError("leader goes with a leader-down trigger, and only there")
        return self

    @property
    def key(self) -> str:
        """A short name for the command line: side/kind[-percent][/leader]."""
        kind = f"{self.kind.value}-{self.percent}" if self.percent else self.kind.value
        return "/".join([self.side.value, kind] + ([self.leader] if self.leader else []))

    @classmethod
    def from_key(cls, key: str) -> MoraleTrigger:
        """The trigger a :attr:`key` names; ValueError when it names none."""
        side, _, rest = key.partition("/")
        kind, _, leader = rest.partition("/")
        name, _, percent = kind.rpartition("-") if kind.startswith("casualties") else \
            (kind, "", "")
        try:
            return cls(side=Side(side), kind=TriggerKind(name), leader=leader or None,
                       percent=int(percent) if percent else None)
        except ValueError:
            raise ValueError(f"{key!r} names no morale trigger (e.g. opposition/outnumbered, "
                             "opposition/casualties-50, opposition/leader-down/TOKEN)") from None

    def short(self, leader_name: str | None = None) -> str:
        """What happened, without the side (the bar names it)."""
        if self.kind is TriggerKind.CASUALTIES:
            return f"{self.percent}% down"
        if self.kind is TriggerKind.LEADER_DOWN:
            return f"leader {leader_name or self.leader} down"
        return "outnumbered after taking losses"

    def describe(self) -> str:
        side = "the party" if self.side is Side.PARTY else "the opposition"
        if self.kind is TriggerKind.CASUALTIES:
            return f"{self.percent}% of {side} down"
        if self.kind is TriggerKind.LEADER_DOWN:
            return f"a leader of {side} down ({self.leader})"
        return f"{side} outnumbered after taking losses"
