"""The scorebook: matches, events, players, ratings, who may score, and moving matches in
and out — the use-cases the web's doors call, over `scorebook.storage`."""
