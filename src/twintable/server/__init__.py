"""The game server: lobby, tables, WebSocket protocol, storage and ratings.

Game-agnostic: a table runs whatever game the registry holds, so a new game needs no
server change.
"""
