"""examples/versions.rs under FastAPI + Cadwyn: the same product catalogue in three dated versions,
one handler per route, the same changes (a field renamed, retyped, added, removed, a constraint
and a status changed, a route added and one removed). Served by scripts/client-checks.sh under
uvicorn; tests/tests/framework/example_versions.rs sends the same requests to both and compares
each version's answers and 422s (the differences left are listed there).

Cadwyn changes the schemas and routes per version from the instructions below, and runs the
migrations for the data; a rename or an added field moves only where a migration moves it.
"""

from cadwyn import (
    Cadwyn,
    HeadVersion,
    RequestInfo,
    ResponseInfo,
    Version,
    VersionBundle,
    VersionChange,
    VersionedAPIRouter,
    convert_request_to_next_version_for,
    convert_response_to_previous_version_for,
    endpoint,
    schema,
)
from fastapi import HTTPException
from pydantic import BaseModel, Field


class Product(BaseModel):
    """A product, as the newest version has it."""

    name: str = Field(max_length=100)
    price: float = Field(ge=0)
    tags: list[str]


CATALOGUE = [
    Product(name="Hammer", price=12.5, tags=["tools"]),
    Product(name="Saw", price=20.0, tags=[]),
]

router = VersionedAPIRouter()


@router.get("/products/{id}", response_model=Product)
async def read_product(id: int):
    if 1 <= id <= len(CATALOGUE):
        return CATALOGUE[id - 1]
    raise HTTPException(404, detail=f"Product {id} not found")


@router.post("/products", response_model=Product, status_code=201)
async def create_product(product: Product):
    return product


@router.get("/products", response_model=list[Product])
async def list_products():
    return CATALOGUE


@router.only_exists_in_older_versions
@router.get("/products/by-title/{title}", response_model=Product)
async def find_by_title(title: str):
    for product in CATALOGUE:
        if product.name == title:
            return product
    raise HTTPException(404, detail=f"No product titled {title}")


class TagsAndNoLegacyCode(VersionChange):
    """2026-06-01: `tags` added, `legacy_code` removed, a `name` of up to 100 characters, `GET /products` added."""

    description = "tags added, legacy_code removed, longer names, the catalogue listed"
    instructions_to_migrate_to_previous_version = (
        schema(Product).field("tags").didnt_exist,
        schema(Product).field("legacy_code").existed_as(type=str),
        schema(Product).field("name").had(max_length=20),
        endpoint("/products", ["GET"]).didnt_exist,
    )

    @convert_request_to_next_version_for(Product)
    def request(request: RequestInfo):
        request.body.pop("legacy_code", None)
        request.body["tags"] = []

    @convert_response_to_previous_version_for(Product)
    def response(response: ResponseInfo):
        response.body.pop("tags", None)
        response.body["legacy_code"] = "L-" + response.body["name"]


class NamesAndEuros(VersionChange):
    """2026-03-01: `title` renamed `name`, the price in euros, `POST /products` answers 201, `GET /products/by-title/{title}` removed."""

    description = "title renamed name, prices in euros, 201 Created, no lookup by title"
    instructions_to_migrate_to_previous_version = (
        schema(Product).field("name").had(name="title"),
        schema(Product).field("price").had(type=int),
        endpoint("/products", ["POST"]).had(status_code=200),
        endpoint("/products/by-title/{title}", ["GET"]).existed,
    )

    @convert_request_to_next_version_for(Product)
    def request(request: RequestInfo):
        request.body["name"] = request.body.pop("title")
        request.body["price"] = request.body["price"] / 100

    @convert_response_to_previous_version_for(Product)
    def response(response: ResponseInfo):
        response.body["title"] = response.body.pop("name")
        response.body["price"] = round(response.body["price"] * 100)


versions = VersionBundle(
    HeadVersion(),
    Version("2026-06-01", TagsAndNoLegacyCode),
    Version("2026-03-01", NamesAndEuros),
    Version("2026-01-15"),
)

app = Cadwyn(
    versions=versions,
    title="versions example",
    api_version_parameter_name="API-Version",
    api_version_default_value="2026-06-01",
)
app.generate_and_include_versioned_routers(router)
