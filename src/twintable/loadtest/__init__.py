"""Load testing a running server: scripted players in several processes play real
games over the public protocol (``twintable loadtest``). A client tool: it speaks only
HTTP and WebSocket to the server and never imports it."""
