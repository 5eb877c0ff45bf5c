"""The two doors into Tablescore: phone pages and the JSON API, over one database per request."""
