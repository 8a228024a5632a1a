"""``/api/...``: the schema, its docs, a token, tables (and playing at them), hands, players,
leaderboard. The socket publishes its own protocol (``/api/asyncapi.json``: pokersite.urls)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from tables.api import (
    clubs,
    hosting,
    imports,
    ledger,
    notes,
    play,
    play_seats,
    tournament_deals,
    tournaments,
    views,
)

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="api:schema"), name="docs"),
    path("redoc/", SpectacularRedocView.as_view(url_name="api:schema"), name="redoc"),
    path("auth/token/", views.ObtainToken.as_view(), name="token"),
    path("tables/", hosting.TableListCreate.as_view(), name="table-list"),
    path("tables/<str:pk>/", hosting.TableDetailUpdate.as_view(), name="table-detail"),
    # the play API
    path("tables/<str:pk>/state/", play.TableState.as_view(), name="table-state"),
    path("tables/<str:pk>/actions/", play.TableActions.as_view(), name="table-actions"),
    path("tables/<str:pk>/seat/", play_seats.TableSeat.as_view(), name="table-seat"),
    path("tables/<str:pk>/rabbit/", play.TableRabbitHunt.as_view(), name="table-rabbit"),
    path("tables/<str:pk>/game/", play.TableChooseGame.as_view(), name="table-choose-game"),
    path("tables/<str:pk>/show/", play.TableShowCards.as_view(), name="table-show"),
    path("tables/<str:pk>/sit-out/", play_seats.TableSitOut.as_view(), name="table-sit-out"),
    path("tables/<str:pk>/sit-in/", play_seats.TableSitIn.as_view(), name="table-sit-in"),
    path(
        "tables/<str:pk>/sit-out-next/",
        play_seats.TableSitOutNext.as_view(),
        name="table-sit-out-next",
    ),
    path("tables/<str:pk>/post-now/", play_seats.TablePostNow.as_view(), name="table-post-now"),
    path("tables/<str:pk>/top-up/", play_seats.TableTopUp.as_view(), name="table-top-up"),
    path("tables/<str:pk>/pre-action/", play.TablePreAction.as_view(), name="table-pre-action"),
    path("tables/<str:pk>/broadcast/", play_seats.TableBroadcast.as_view(), name="table-broadcast"),
    # the night's ledger
    path("tables/<str:pk>/ledger/", ledger.TableLedger.as_view(), name="table-ledger"),
    path("tables/<str:pk>/ledger.csv", ledger.TableLedgerCSV.as_view(), name="table-ledger-csv"),
    path("tables/<str:pk>/settlement/", ledger.TableSettlement.as_view(), name="table-settlement"),
    # hosting a game
    path("tables/<str:pk>/invite/", hosting.InviteReplace.as_view(), name="table-invite"),
    path("tables/<str:pk>/close/", hosting.TableCloseView.as_view(), name="table-close"),
    path("tables/<str:pk>/pause/", hosting.TablePause.as_view(), name="table-pause"),
    path("tables/<str:pk>/resume/", hosting.TableResume.as_view(), name="table-resume"),
    path("tables/<str:pk>/bomb-pot/", hosting.TableBombPot.as_view(), name="table-bomb-pot"),
    path(
        "tables/<str:pk>/players/<str:player_id>/",
        hosting.PlayerControl.as_view(),
        name="table-player",
    ),
    path("tables/<str:pk>/requests/", hosting.SeatRequests.as_view(), name="table-requests"),
    path(
        "tables/<str:pk>/requests/<str:request_id>/approve/",
        hosting.ApproveRequest.as_view(),
        name="request-approve",
    ),
    path(
        "tables/<str:pk>/requests/<str:request_id>/decline/",
        hosting.DeclineRequest.as_view(),
        name="request-decline",
    ),
    path("clubs/", clubs.ClubListCreate.as_view(), name="club-list"),
    path("clubs/<str:pk>/", clubs.ClubDetail.as_view(), name="club-detail"),
    path("clubs/<str:pk>/join/", clubs.ClubJoin.as_view(), name="club-join"),
    path("clubs/<str:pk>/members/", clubs.ClubMembers.as_view(), name="club-members"),
    path("clubs/<str:pk>/standings/", clubs.ClubStandings.as_view(), name="club-standings"),
    path(
        "clubs/<str:pk>/standings.csv",
        clubs.ClubStandingsCSV.as_view(),
        name="club-standings-csv",
    ),
    # games played elsewhere (tables.imports)
    path("imports/", imports.ImportList.as_view(), name="import-list"),
    path("imports/pokernow/", imports.PokerNowUpload.as_view(), name="import-pokernow"),
    path("imports/hands/", imports.ImportedHandList.as_view(), name="imported-hands"),
    path("imports/<str:pk>/", imports.ImportDetail.as_view(), name="import-detail"),
    path("hands/", views.HandList.as_view(), name="hand-list"),
    # before hands/<pk>/, which would take "pokerstars" for an id
    path("hands/pokerstars/", views.HandListPokerStars.as_view(), name="hand-list-pokerstars"),
    path("hands/<str:pk>/", views.HandDetail.as_view(), name="hand-detail"),
    path("hands/<str:pk>/phh/", views.HandPHH.as_view(), name="hand-phh"),
    path("hands/<str:pk>/yaml/", views.HandYAML.as_view(), name="hand-yaml"),
    path("hands/<str:pk>/pokerstars/", views.HandPokerStars.as_view(), name="hand-pokerstars"),
    path("players/me/", views.PlayerMe.as_view(), name="player-me"),
    path("players/me/stats/", views.PlayerMeStats.as_view(), name="player-me-stats"),
    path("players/<str:pk>/", views.PlayerDetail.as_view(), name="player-detail"),
    path("players/<str:pk>/stats/", views.PlayerStats.as_view(), name="player-stats"),
    path("notes/", notes.NoteList.as_view(), name="note-list"),
    # before notes/<pk>/, which would take "import" for an id
    path("notes/import/", notes.NotesImport.as_view(), name="notes-import"),
    path("notes/<str:pk>/", notes.NoteDetail.as_view(), name="note-detail"),
    path("leaderboard/", views.Leaderboard.as_view(), name="leaderboard"),
    path(
        "leaderboard/tournaments/",
        views.TournamentLeaderboard.as_view(),
        name="leaderboard-tournaments",
    ),
]

#: ``/api/tournaments/...`` (namespace ``tournaments_api``, included by ``pokersite.urls``).
tournament_urlpatterns = [
    path("tournaments/", tournaments.TournamentListCreate.as_view(), name="list"),
    path("tournaments/<str:pk>/", tournaments.TournamentDetail.as_view(), name="detail"),
    path(
        "tournaments/<str:pk>/registration/",
        tournaments.Registration.as_view(),
        name="registration",
    ),
    path("tournaments/<str:pk>/start/", tournaments.Start.as_view(), name="start"),
    path("tournaments/<str:pk>/rebuy/", tournaments.Rebuy.as_view(), name="rebuy"),
    path("tournaments/<str:pk>/addon/", tournaments.Addon.as_view(), name="addon"),
    path("tournaments/<str:pk>/deal/", tournament_deals.DealView.as_view(), name="deal"),
    path(
        "tournaments/<str:pk>/deal/answer/",
        tournament_deals.DealAnswer.as_view(),
        name="deal-answer",
    ),
]
