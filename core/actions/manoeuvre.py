"""The core action of each melee manoeuvre request, for the views that hold a request
(a menu entry, a choice picked on the map, a drag) and hand it to the Resolve panel."""

from __future__ import annotations

from typing import Any

from core.actions.base import Action
from core.actions.charge import ChargeAction
from core.actions.evade import EvadeAction
from core.actions.force_back import ForceBackAction
from core.actions.grapple import GrappleAction
from core.actions.group_overrun import GroupOverrunAction
from core.actions.overrun import OverrunAction
from core.rules.charge import ChargeRequest
from core.rules.evade import EvadeRequest
from core.rules.force_back import ForceBackRequest
from core.rules.grapple import GrappleRequest
from core.rules.group_overrun import GroupOverrunRequest
from core.rules.manoeuvres import Request
from core.rules.overrun import OverrunRequest


def action_for(request: Request) -> Action[Any]:
    """The action that resolves ``request``."""
    match request:
        case ForceBackRequest():
            return ForceBackAction(request)
        case ChargeRequest():
            return ChargeAction(request)
        case OverrunRequest():
            return OverrunAction(request)
        case GrappleRequest():
            return GrappleAction(request)
        case EvadeRequest():
            return EvadeAction(request)
        case GroupOverrunRequest():
            return GroupOverrunAction(request)
