"""A synthetic OpenAPI document and agents.json bundle of a chosen size and shape, for the
compact-output tests and benchmarks/bench_flows.py.

- ``depth`` levels of schemas, each referring to the next ``fan`` times (``Level0`` holds
  ``fan`` references to ``Level1``, ...): written out in full, a schema of level 0 is
  ``fan ** depth`` copies of the last level, which is what a planner that inlines references
  makes of it;
- ``padding`` operations (with a schema each) that no flow uses, to make the document as large
  as wanted;
- ``flows`` flows, each one action on an operation whose body and response refer to
  ``Level0``.
"""

from __future__ import annotations

from typing import Any


def synthetic_api(
    depth: int = 12, fan: int = 3, padding: int = 10, flows: int = 4
) -> dict[str, Any]:
    schemas: dict[str, Any] = {}
    for level in range(depth + 1):
        if level == depth:
            schemas[f"Level{level}"] = {"type": "object", "properties": {"id": {"type": "string"}}}
        else:
            schemas[f"Level{level}"] = {
                "type": "object",
                "description": f"level {level}",
                "properties": {
                    f"child{i}": {"$ref": f"#/components/schemas/Level{level + 1}"}
                    for i in range(fan)
                },
            }
    paths: dict[str, Any] = {}
    for n in range(flows):
        paths[f"/things{n}/{{thing_id}}"] = {
            "post": {
                "operationId": f"update_thing{n}",
                "parameters": [
                    {
                        "name": "thing_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                    {
                        "name": "fields",
                        "in": "query",
                        "explode": False,
                        "schema": {"type": "array", "items": {"type": "string"}},
                    },
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Level0"}}
                    },
                },
                "responses": {
                    "200": {
                        "description": "updated",
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Level0"}}
                        },
                    }
                },
            }
        }
    for n in range(padding):
        schemas[f"Pad{n}"] = {
            "type": "object",
            "description": f"An unused schema, number {n}, padding the document. " * 4,
            "properties": {
                f"field{i}": {"type": "string", "description": f"Field {i} of pad {n}."}
                for i in range(12)
            },
        }
        paths[f"/pad{n}"] = {
            "get": {
                "operationId": f"pad{n}",
                "summary": f"Padding operation {n}",
                "parameters": [
                    {"name": f"q{i}", "in": "query", "schema": {"type": "string"}} for i in range(3)
                ],
                "responses": {
                    "200": {
                        "description": "ok",
                        "content": {
                            "application/json": {"schema": {"$ref": f"#/components/schemas/Pad{n}"}}
                        },
                    }
                },
            }
        }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Synthetic", "version": "1"},
        "servers": [{"url": "https://synthetic.example"}],
        "paths": paths,
        "components": {"schemas": schemas},
    }


def synthetic_bundle(flows: int = 4) -> dict[str, Any]:
    return {
        "agentsJson": "0.1.0",
        "info": {"title": "Synthetic", "version": "1", "description": "A synthetic bundle."},
        "sources": [{"id": "synthetic", "path": "openapi.json"}],
        "flows": [
            {
                "id": f"update_thing{n}_flow",
                "title": f"Update thing {n}",
                "description": "Update a thing.",
                "actions": [
                    {"id": "update", "sourceId": "synthetic", "operationId": f"update_thing{n}"}
                ],
                "links": [
                    {
                        "origin": {"actionId": None, "fieldPath": "parameters.thing_id"},
                        "target": {"actionId": "update", "fieldPath": "parameters.thing_id"},
                    },
                    {
                        "origin": {"actionId": None, "fieldPath": "parameters.fields"},
                        "target": {"actionId": "update", "fieldPath": "parameters.fields"},
                    },
                    {
                        "origin": {"actionId": None, "fieldPath": "requestBody"},
                        "target": {"actionId": "update", "fieldPath": "requestBody"},
                    },
                ],
                "fields": {
                    "parameters": [
                        {
                            "name": "thing_id",
                            "type": "string",
                            "required": True,
                            "description": "Id.",
                        },
                        {"name": "fields", "type": "array", "required": False, "description": "F."},
                    ],
                    "requestBody": {
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "properties": {"child0": {"type": "object"}},
                                }
                            }
                        }
                    },
                    "responses": {"success": {"type": "object"}},
                },
            }
            for n in range(flows)
        ],
    }
