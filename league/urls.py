"""URLs: pages, the admin, and the API under /api/."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from engine import IllegalMove
from games.api import router as matches_router
from games.errors import DomainError, http_error

api = NinjaAPI(title="cardleague API", version="1", urls_namespace="api")
api.add_router("/matches", matches_router)
api.add_router("/league", "league.api.router")


@api.exception_handler(IllegalMove)
@api.exception_handler(DomainError)
def domain_error(request, exc):
    status, body = http_error(exc)
    return api.create_response(request, body, status=status)


@api.exception_handler(ValidationError)
def validation_error(request, exc):
    return api.create_response(request, {"code": "malformed_request", "rule": None, "message": "invalid request",
                                         "errors": exc.errors}, status=400)


@api.exception_handler(HttpError)
def http_error_json(request, exc):
    code = {400: "malformed_request", 404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return api.create_response(request, {"code": code, "rule": None, "message": str(exc)}, status=exc.status_code)


@api.exception_handler(AuthenticationError)
def auth_error(request, exc):
    return api.create_response(request, {"code": "not_signed_in", "rule": None, "message": "sign in first"},
                               status=401)


urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.urls")),
    path("", include("league.page_urls")),
]
