"""Page-numbered lists: ``?page=2&page_size=100`` (1 to 200 a page, 50 by default)."""

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        """The asked page size; anything but a whole number 1..200 is a 400 (DRF ignores it)."""
        text = request.query_params.get(self.page_size_query_param)
        if text is None:
            return self.page_size
        if not text.isdigit() or not 1 <= int(text) <= self.max_page_size:
            raise ValidationError(
                {"page_size": [f"A whole number from 1 to {self.max_page_size}."]}
            )
        return int(text)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": self.max_page_size})
            if parameter["name"] == self.page_query_param:
                parameter["schema"].update({"minimum": 1})
        return parameters
