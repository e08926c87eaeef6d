"""``POST /api/tables/{id}/analysis`` asks for a finished game's analysis (it runs once, in the
background); ``GET /api/tables/{id}/analysis`` follows its progress and gives the result."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from ..errors import ApiError
from ..web.openapi import json_body, request_body
from ..web.requests import JSON, load_guard, rate_limit, read_model
from .service import METHODS, Analyses, analysis_json

__all__ = ["install_analysis_routes"]


class AnalysisRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    method: Literal["static", "sim"] = "static"
    """static equity (fast), or simulation (deeper, about a second a move)."""


def _analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


def install_analysis_routes(app: FastAPI) -> None:
    @app.post(
        "/api/tables/{table_id}/analysis",
        status_code=202,
        openapi_extra=request_body({JSON: json_body(AnalysisRequest)}),
    )
    async def ask(table_id: str, request: Request) -> JSONResponse:
        rate_limit(request, "analysis")
        load_guard(request).admit("analysis")
        body = await request.body()
        req = (await read_model(request, AnalysisRequest))[0] if body else AnalysisRequest()
        analysis = await _analyses(request).request(table_id, req.method)
        status = 200 if analysis.state == "done" else 202
        return JSONResponse(analysis_json(analysis), status_code=status)

    @app.get("/api/tables/{table_id}/analysis")
    async def follow(table_id: str, request: Request, method: str = "static") -> dict[str, Any]:
        if method not in METHODS:
            raise ApiError(422, "invalid_request", "method: static or sim", field="method")
        await request.app.state.hub.room(table_id)  # 404 for a table that does not exist
        return analysis_json(await _analyses(request).get(table_id, method))
