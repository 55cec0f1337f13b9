"""An agents.json flow of two actions, run against a local stand-in for the HubSpot API.

    python examples/flows_contacts.py

``contacts_get_and_update`` (from the hubspotcontacts bundle the package ships) reads a
contact, then updates it: the second action's ``contactId`` comes from the first one's
response (a link), and the new properties from the caller. The stand-in below answers the two
operations the flow uses, in HubSpot's shapes, checks the bearer token and logs each request.
A flow whose action fails raises ``FlowHTTPError`` naming the flow, the action and the status.
"""

from __future__ import annotations

from typing import Any

from _peers import serve
from agentproto.flows import BearerAuth, FlowHTTPError
from agentproto.flows.hubspotcontacts import HubspotcontactsFlows
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

TOKEN = "pat-local-example"
CONTACTS: dict[str, dict[str, str]] = {
    "151": {"email": "ada@example.com", "firstname": "Ada", "lifecyclestage": "lead"}
}


def contact(contact_id: str) -> dict[str, Any]:
    stamp = "2025-01-01T00:00:00Z"
    return {
        "id": contact_id,
        "properties": CONTACTS[contact_id],
        "createdAt": stamp,
        "updatedAt": stamp,
        "archived": False,
    }


async def one_contact(request: Request) -> JSONResponse:
    contact_id = request.path_params["contactId"]
    print(f"  stand-in: {request.method} {request.url.path}")
    if request.headers.get("authorization") != f"Bearer {TOKEN}":
        return JSONResponse({"status": "error", "message": "no valid token"}, status_code=401)
    if contact_id not in CONTACTS:
        return JSONResponse({"status": "error", "message": "not found"}, status_code=404)
    if request.method == "PATCH":
        CONTACTS[contact_id].update((await request.json())["properties"])
    return JSONResponse(contact(contact_id))


STAND_IN = Starlette(
    routes=[Route("/crm/v3/objects/contacts/{contactId}", one_contact, methods=["GET", "PATCH"])]
)


def main() -> None:
    with (
        serve(STAND_IN) as url,
        HubspotcontactsFlows(
            auth={"hubspotcontacts": BearerAuth(TOKEN)}, base_urls={"hubspotcontacts": url}
        ) as flows,
    ):
        print("contacts_get_and_update(contactId='151', properties={'lifecyclestage': ...}):")
        result = flows.contacts_get_and_update(
            contactId="151", properties={"lifecyclestage": "customer"}
        )
        print(f"result: id={result.id} properties={result.properties}")
        try:
            flows.contacts_get_and_update(contactId="999", properties={"firstname": "Bob"})
        except FlowHTTPError as exc:
            print(f"error: flow {exc.flow}, action {exc.action}, status {exc.status}")


if __name__ == "__main__":
    main()
