"""Page-numbered lists: ``?page=2&page_size=100`` (1 to 200 a page, 50 by default)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator as DjangoPaginator
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.views import APIView

from tables.text import LARGEST, NumberError, parse_optional_number, parse_whole_number


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    invalid_page_message = "page {page_number}: {message}."  # past the last page: 404

    def get_page_size(self, request: Request) -> int:
        """The asked page size; anything but a whole number 1..200 is a 400 (DRF ignores it)."""
        text = request.query_params.get(self.page_size_query_param)
        if text is None:
            return self.page_size
        try:
            return parse_whole_number(
                text, what=self.page_size_query_param, minimum=1, maximum=self.max_page_size
            )
        except NumberError as error:
            raise ValidationError({error.what: [error.problem]}) from None

    def get_page_number(self, request: Request, paginator: DjangoPaginator[Any]) -> int | str:
        """The asked page (1 when left out or empty, ``last`` the last one); a page that is not
        a whole number from 1 is a 400, where DRF answers 404 or reads "١" as 1."""
        text = request.query_params.get(self.page_query_param)
        if text in self.last_page_strings:
            return paginator.num_pages
        try:
            number = parse_optional_number(text, what=self.page_query_param, minimum=1)
        except NumberError as error:
            raise ValidationError({error.what: [error.problem]}) from None
        return 1 if number is None else number

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": self.max_page_size})
            if parameter["name"] == self.page_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": LARGEST})
        return parameters
