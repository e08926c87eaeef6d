"""Request bodies in the OpenAPI schema (``/api/openapi.json``).

The handlers read their bodies themselves (so that every refusal has the API's own error
form and limits apply before parsing), which hides the bodies from FastAPI's schema. These
helpers describe them again from the same pydantic models, as ``openapi_extra`` of a route:
the schema that clients and fuzzers (tests/server/test_schema_fuzz.py) read is the one the
server validates with.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["json_body", "request_body"]


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with every ``{"$ref": "#/$defs/X"}`` replaced by X (the models are not
    recursive), so each route's schema stands alone."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.removeprefix("#/$defs/")], defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of ``model`` with its definitions inlined."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    result: dict[str, Any] = _inline(schema, defs)
    return result


def request_body(content: dict[str, dict[str, Any]], required: bool = True) -> dict[str, Any]:
    """``openapi_extra`` for a route whose body has these schemas by media type."""
    return {
        "requestBody": {
            "required": required,
            "content": {media: {"schema": schema} for media, schema in content.items()},
        }
    }
