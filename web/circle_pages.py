"""Circles at their doors: starting one, joining it by its invite link, switching between the
circles a phone joined, changing the key, and taking a circle away — as pages and as JSON."""

from __future__ import annotations

from typing import Any

import click
from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from scorebook import access, circles, storage
from scorebook.circles import Circle
from scorers import Refusal

from .circles import (
    CIRCLE_HEADER,
    count_wrong_key,
    current,
    forget,
    many,
    phone_circles,
    remember,
    too_many_wrong_keys,
    wrong_keys_said,
)
from .db import get_db
from .errors import answer
from .json_body import body as json_body
from .json_body import require_json
from .limits import limiter
from .openapi_parts import PASSCODE, body, header, obj, refusal
from .openapi_parts import answer as described
from .passcode import PASSCODE_HEADER, check_passcode

bp = Blueprint("circle_pages", __name__, cli_group=None)


def invite_url(key: str) -> str:
    """Return the address a phone opens to join a circle: it carries the key."""
    return url_for("circle_pages.join", key=key, _external=True)


def made_circle(response: Any) -> bool:
    """Count only circles made, so a name refused or a passcode mistyped costs nothing."""
    return response.status_code in (201, 302)


starting = limiter.shared_limit(
    lambda: current_app.config["CIRCLE_LIMIT"],
    scope="circle",
    methods=["POST"],
    deduct_when=made_circle,
    error_message=lambda: _(
        "Too many circles started from this phone: wait a while before starting another."
    ),
)
"""One allowance of circles started per address, shared by POST /circles and /api/circles."""


def check_many() -> None:
    """Answer 409 to what only a server of many circles does: one of one has a single circle."""
    if not many():
        abort(
            409,
            _(
                "This Tablescore keeps one circle, open to everyone who reaches it: its owner "
                "starts it with TABLESCORE_CIRCLES=many to keep several."
            ),
        )


def own_circle(circle_id: int) -> Circle:
    """Return the request's circle if it is circle `circle_id`, else answer 404."""
    circle = current()
    if circle is None or circle.id != circle_id:
        abort(404, _("There is no circle {id} here.").format(id=circle_id))
    return circle


def this_circle() -> Circle:
    """Return the circle the request acts in: on a server of one, the only one."""
    return current() or circles.read(get_db(), storage.ONE_CIRCLE)


@bp.post("/api/circles")
@starting
def start_json() -> ResponseReturnValue:
    """Start a circle; the answer carries its key and invite link, given this once."""
    require_json()
    check_many()
    check_passcode(request.headers.get(PASSCODE_HEADER), "circle")
    data = json_body()
    circle, key = circles.start(get_db(), data.get("name"))
    return jsonify(id=circle.id, name=circle.name, key=key, invite_url=invite_url(key)), 201


@bp.get("/api/circle")
def circle_json() -> ResponseReturnValue:
    """Say which circle the key opens, and how many matches and players it holds."""
    return jsonify(circles.describe(get_db(), this_circle()))


@bp.post("/api/circles/<int:circle_id>/key")
def rekey_json(circle_id: int) -> ResponseReturnValue:
    """Give the circle a new key: the old key and its invite link open nothing from now on."""
    require_json({"circle_pages.rekey_json"})
    check_many()
    key = circles.rekey(get_db(), own_circle(circle_id).id)
    return jsonify(key=key, invite_url=invite_url(key))


@bp.delete("/api/circles/<int:circle_id>")
def delete_json(circle_id: int) -> ResponseReturnValue:
    """Take the circle away with everything it holds, once its name is given to confirm."""
    require_json()
    check_many()
    circle = own_circle(circle_id)
    if json_body().get("name") != circle.name:
        raise Refusal.at(
            "name",
            _("Deleting a circle takes away every match it holds: give its name to confirm."),
        )
    return jsonify(deleted=circles.delete(get_db(), circle))


JSON_DOORS = (start_json, circle_json, rekey_json, delete_json)
"""The doors of the JSON API here: like the rest of the API, they take no form's CSRF token."""


@bp.post("/circles")
@starting
def start_page() -> ResponseReturnValue:
    """Start a circle from the home page; this phone is in it from now on."""
    check_many()
    try:
        check_passcode(request.form.get("passcode"), "circle")
        circle, key = circles.start(get_db(), request.form.get("name"))
    except (access.Forbidden, Refusal) as refused:
        status = 403 if isinstance(refused, access.Forbidden) else 422
        message = refused.message if isinstance(refused, Refusal) else str(refused)
        return render_template("circles/welcome.html", refusal=message), status
    remember(key)
    flash(_("Circle “{name}” started: invite the others with its link.").format(name=circle.name))
    return redirect(url_for(".circle_page"))


@bp.get("/circles/join/<key>")
def join(key: str) -> ResponseReturnValue:
    """Join a circle by its invite link: this phone is in it from now on."""
    check_many()
    if too_many_wrong_keys():
        return answer(429, wrong_keys_said())
    circle = circles.find(get_db(), key)
    if circle is None:
        count_wrong_key()
        return answer(
            404,
            _(
                "This invite link opens no circle: its key may have been changed. Ask someone "
                "in the circle for the new link."
            ),
        )
    remember(key)
    flash(_("You are in the circle “{name}” on this phone.").format(name=circle.name))
    return redirect(url_for("pages.home"))


@bp.post("/circles/switch")
def switch() -> ResponseReturnValue:
    """Use another circle this phone joined."""
    wanted = request.form.get("circle", type=int)
    for key, circle in phone_circles().items():
        if circle.id == wanted:
            remember(key)
            break
    return redirect(url_for("pages.home"))


@bp.get("/circle")
def circle_page() -> ResponseReturnValue:
    """Show the circle: its invite link and QR code, and what its members may do with it."""
    check_many()
    return render_template(
        "circles/circle.html",
        invite=invite_url(g.circle_key),
        counts=circles.describe(get_db(), current()),
        joined=phone_circles(),
    )


@bp.post("/circle/key")
def rekey_page() -> ResponseReturnValue:
    """Give the circle a new invite link: the old one opens nothing from now on."""
    check_many()
    forget(g.circle_key)
    key = circles.rekey(get_db(), current().id)
    remember(key)
    flash(_("The circle has a new invite link: the old one no longer opens it."))
    return redirect(url_for(".circle_page"))


@bp.post("/circle/leave")
def leave_page() -> ResponseReturnValue:
    """Take the circle off this phone: its matches stay, for the others in it."""
    check_many()
    forget(g.circle_key)
    flash(_("This phone left the circle “{name}”.").format(name=current().name))
    return redirect(url_for("pages.home"))


@bp.route("/circle/delete", methods=["GET", "POST"])
def delete_page() -> ResponseReturnValue:
    """Ask twice, then take the circle away with everything it holds."""
    check_many()
    circle = current()
    counts = circles.describe(get_db(), circle)
    if request.method == "GET" or request.form.get("name", "").strip() != circle.name:
        status = 200 if request.method == "GET" else 422
        return render_template("circles/delete.html", counts=counts, refused=status == 422), status
    forget(g.circle_key)
    circles.delete(get_db(), circle)
    flash(_("The circle “{name}” and everything it held are deleted.").format(name=circle.name))
    return redirect(url_for("pages.home"))


@bp.cli.command("circle-key")
@click.option("--circle", "circle_id", type=int, default=storage.ONE_CIRCLE, show_default=True)
@click.option("--name", default=None, help="A new name for the circle.")
@click.option("--site", default=None, help="The site's address, to print the invite link.")
def circle_key_command(circle_id: int, name: str | None, site: str | None) -> None:
    """Give a circle a new key and print it: how the owner of a database made on a server of
    one circle opens it once the server keeps many (its data is circle 1)."""
    g.circle_id = circle_id
    try:
        key = circles.rekey(get_db(), circle_id, name)
    except (circles.NotFound, Refusal) as refused:
        raise click.ClickException(str(getattr(refused, "message", refused))) from None
    click.echo(f"Circle {circle_id} key: {key}")
    if site:
        click.echo(f"Invite link: {site.rstrip('/')}/circles/join/{key}")
    click.echo("The old key, if it had one, opens nothing from now on.")


CIRCLE_KEY = header(
    CIRCLE_HEADER,
    "The key of the circle the request acts in, on a server of many circles "
    "(TABLESCORE_CIRCLES=many).",
)
CIRCLE = obj(
    {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "matches": {"type": "integer"},
        "players": {"type": "integer"},
        "events": {"type": "integer"},
    },
    required=["id", "name", "matches", "players"],
)
KEYED = obj(
    {"key": {"type": "string"}, "invite_url": {"type": "string", "format": "uri"}},
    required=["key", "invite_url"],
)
STARTED = obj(
    {"id": {"type": "integer"}, "name": {"type": "string"}, **KEYED["properties"]},
    required=["id", "name", "key", "invite_url"],
)
NAMED = obj({"name": {"type": "string", "minLength": 1, "maxLength": 40}}, required=["name"])
CIRCLE_ID = {"name": "circle_id", "in": "path", "required": True, "schema": {"type": "integer"}}
OPENAPI_PATHS: dict[str, Any] = {
    "/api/circles": {
        "post": {
            "summary": "Start a circle (a server of many circles only)",
            "parameters": [PASSCODE],
            "requestBody": body(NAMED),
            "responses": {
                "201": described("The circle, with its key and invite link, shown once", STARTED),
                "403": refusal("The server's passcode is missing or wrong."),
                "409": refusal("This server keeps one circle."),
                "422": refusal("The name is refused."),
                "429": refusal("Too many circles started from this phone."),
            },
        }
    },
    "/api/circle": {
        "get": {
            "summary": "The circle the key opens: its name, matches and players",
            "parameters": [CIRCLE_KEY],
            "responses": {
                "200": described("The circle", CIRCLE),
                "401": refusal("No key, or a key that opens no circle."),
            },
        }
    },
    "/api/circles/{circle_id}/key": {
        "post": {
            "summary": "Give the circle a new key: the old key and invite link stop working",
            "parameters": [CIRCLE_ID, CIRCLE_KEY],
            "responses": {
                "200": described("The new key and invite link", KEYED),
                "404": refusal("No such circle, or not the circle of the key given."),
                "409": refusal("This server keeps one circle."),
            },
        }
    },
    "/api/circles/{circle_id}": {
        "delete": {
            "summary": "Delete the circle and everything it holds; its name confirms",
            "parameters": [CIRCLE_ID, CIRCLE_KEY],
            "requestBody": body(NAMED),
            "responses": {
                "200": described(
                    "How much was deleted",
                    obj(
                        {
                            "deleted": obj(
                                {
                                    "matches": {"type": "integer"},
                                    "players": {"type": "integer"},
                                    "events": {"type": "integer"},
                                }
                            )
                        }
                    ),
                ),
                "404": refusal("No such circle, or not the circle of the key given."),
                "409": refusal("This server keeps one circle."),
                "422": refusal("The name given is not the circle's."),
            },
        }
    },
}
