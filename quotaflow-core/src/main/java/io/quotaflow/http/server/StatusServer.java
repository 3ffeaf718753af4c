package io.quotaflow.http.server;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.metrics.HealthCheck;
import io.quotaflow.metrics.MetricsPage;
import io.quotaflow.metrics.MetricsText;
import io.quotaflow.metrics.PipelineMetrics;
import io.quotaflow.metrics.StreamsProbe;
import io.quotaflow.provider.RouteStateBoard;
import io.quotaflow.records.Json;
import io.quotaflow.records.TicketKey;
import io.quotaflow.settings.AccessTokens;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.status.Caller;
import io.quotaflow.status.HttpAccess;
import io.quotaflow.status.PeerSignature;
import io.quotaflow.status.TicketAnswer;
import io.quotaflow.status.TicketPaths;
import io.quotaflow.status.TicketService;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The instance's HTTP endpoints, matched exactly and answering GET and HEAD only (404 for any other
 * path, 405 with {@code Allow: GET, HEAD} for any other method): {@code /metrics} (Prometheus
 * text, {@link MetricsText}; gzipped when the request accepts gzip), {@code /health/live} and
 * {@code /health/ready} ({@link HealthCheck}; {@code /health} is the readiness check under its old
 * name) and {@code /status} (JSON per owned scope: queue depth and oldest age per priority, quota use, cooldown, circuit, estimated wait, and per priority when
 * what waits now is expected to be done) and {@code /tickets/{id}} (one ticket's status and ETA,
 * {@link TicketService}; the id percent-encoded, {@link TicketPaths}; {@code ?local=true} answers
 * from this instance only; the path names the ticket by its key, {@code tenant:id}, or by its id with
 * {@code ?tenant=}). With tokens ({@code http.tokens-file}, {@code http.auth-token-file}: {@link HttpAccess})
 * {@code /status} and {@code /tickets/{id}} require {@code Authorization: Bearer <token>} (401 without
 * a known one); a tenant's token sees its own tenant's tickets only (404 for another's, whether it
 * exists or not) and gets 403 on {@code /status}, which is an operator's ({@code *}); a question
 * forwarded by another instance is taken for the tenant it was signed for ({@link PeerSignature});
 * probes and metrics stay open. The tokens and the TLS identity are read again when their files
 * change.
 *
 * <p>Nothing a client or a peer does can delay a probe:
 * <ul>
 *   <li>connections are read and written with non-blocking I/O (Jetty), so a client that stalls
 *       mid-request, or reads its answer slowly, holds a connection (closed after
 *       {@code http.idle-timeout-ms} of silence), never a thread; the request threads
 *       ({@code quotaflow-http}) only route, answer the probes, and hand the rest on;</li>
 *   <li>{@code /metrics} renders on a thread of its own, one render at a time, concurrent scrapes
 *       sharing it ({@link MetricsPage}); beyond {@value #MAX_SCRAPES} scrapes being answered, or
 *       a render not ready within {@value #RENDER_WAIT_MS} ms, a scrape gets 503;</li>
 *   <li>{@code /status} and local ticket look-ups run on {@code quotaflow-http-work}, look-ups that
 *       ask the other instances on {@code quotaflow-http-forward} (all peers at once, one overall
 *       timeout: {@code TicketForwarder}); a full queue answers 503 rather than waiting.</li>
 * </ul>
 *
 * <p>Why Jetty and not the JDK's {@code com.sun.net.httpserver}: that server reads a request's
 * headers and writes its answer with blocking I/O on its executor's threads, so every stalled or
 * slow client holds a thread, and its only request and response timeouts are JVM-wide system
 * properties ({@code sun.net.httpserver.maxReqTime}, read once per JVM). Jetty's core API (no
 * servlets: jetty-server, -http, -io, -util) parses and writes asynchronously, with per-connector
 * timeouts and TLS, and is actively maintained.
 */
public final class StatusServer implements AutoCloseable {

    /** Most scrapes being answered at once; more get 503 with {@code Retry-After}. */
    static final int MAX_SCRAPES = 128;
    /** Connections the kernel holds for accepting (the default, 50, drops a burst's excess into 1 s SYN retries). */
    static final int ACCEPT_QUEUE = 1024;
    /** Longest a scrape waits for its render. */
    static final long RENDER_WAIT_MS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";
    private static final String ALLOW = "GET, HEAD";

    /** Where an endpoint is answered. */
    private enum Where { PROBE, METRICS, WORK, FORWARD }

    /** Who may ask an endpoint when tokens are configured. */
    private enum Guard { OPEN, TOKEN, OPERATOR }

    private record Endpoint(Where where, Guard guard, Function<Caller, Reply> reply) {
        static Endpoint open(Where where, Supplier<Reply> reply) {
            return new Endpoint(where, Guard.OPEN, c -> reply.get());
        }
    }

    private final Server server;
    private final ServerConnector connector;
    private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();
    private final TicketService tickets;
    private final HttpAccess access;
    private final org.apache.kafka.common.utils.Time time;
    private final MetricsPage page;
    private final AtomicInteger scrapes = new AtomicInteger();
    private final ExecutorService renderer = ServerParts.pool("quotaflow-http-metrics", 1, 1);
    private final ExecutorService work = ServerParts.pool("quotaflow-http-work", 2, 64);
    private final RouteStateBoard routes;
    private final ExecutorService forward = ServerParts.pool("quotaflow-http-forward", 4, 64);

    /**
     * Serves on {@code bind}:{@code port} (0: a free port).
     *
     * @throws IOException the address does not resolve or the port is taken
     */
    public StatusServer(String bind, int port, PrometheusMeterRegistry registry, PipelineMetrics metrics, StreamsProbe streams)
            throws IOException {
        this(bind, port, registry, metrics, streams, null);
    }

    /**
     * As above, answering {@code GET /tickets/{id}} with {@code tickets} (null: every ticket is
     * {@code unknown}).
     *
     * @throws IOException the address does not resolve or the port is taken
     */
    public StatusServer(String bind, int port, PrometheusMeterRegistry registry, PipelineMetrics metrics, StreamsProbe streams,
                        TicketService tickets) throws IOException {
        this(bind, port, registry, metrics, streams, tickets, HttpSettings.DEFAULT);
    }

    /**
     * As above, guarded, timed and (with TLS) encrypted as {@code http} says.
     *
     * @throws IOException the address does not resolve or the port is taken
     */
    public StatusServer(String bind, int port, PrometheusMeterRegistry registry, PipelineMetrics metrics, StreamsProbe streams,
                        TicketService tickets, HttpSettings http) throws IOException {
        this(bind, port, registry, metrics, streams, tickets, http, RouteStateBoard.none());
    }

    /**
     * As above; {@code /status} shows each route's state on {@code routes} ({@code "routes"}), and the
     * ready probe's body the routes that cannot serve (route health never changes its status).
     *
     * @throws IOException the address does not resolve or the port is taken
     */
    public StatusServer(String bind, int port, PrometheusMeterRegistry registry, PipelineMetrics metrics, StreamsProbe streams,
                        TicketService tickets, HttpSettings http, RouteStateBoard routes) throws IOException {
        this(bind, port, registry, metrics, streams, tickets, http, routes, HttpAccess.of(http));
    }

    /**
     * As above, guarded by the tokens and TLS identity {@code access} holds as its files change (it
     * watches them from now on; closing this server stops that).
     *
     * @throws IOException the address does not resolve or the port is taken
     */
    public StatusServer(String bind, int port, PrometheusMeterRegistry registry, PipelineMetrics metrics, StreamsProbe streams,
                        TicketService tickets, HttpSettings http, RouteStateBoard routes, HttpAccess access) throws IOException {
        this.tickets = tickets;
        this.routes = routes;
        this.access = access;
        this.time = metrics.time();
        this.page = new MetricsPage(() -> MetricsText.render(registry), renderer);
        Supplier<Reply> ready = () -> Reply.report(HealthCheck.ready(streams.state(), streams.wasRunning(),
                metrics.notReadyReason(metrics.time().milliseconds()), metrics.haltedRoutes()).withRouteStates(StatusPage.unserved(routes)));
        endpoints.put("/metrics", Endpoint.open(Where.METRICS, null));
        endpoints.put("/health/live", Endpoint.open(Where.PROBE,
                () -> Reply.report(HealthCheck.live(streams.state(), streams.aliveThreads(),
                        metrics.notLiveReason(metrics.time().milliseconds()), metrics.haltedRoutes()))));
        endpoints.put("/health/ready", Endpoint.open(Where.PROBE, ready));
        endpoints.put("/health", Endpoint.open(Where.PROBE, ready));
        endpoints.put("/status", new Endpoint(Where.WORK, Guard.OPERATOR, c -> new Reply(200, Reply.JSON, StatusPage.render(metrics, streams, routes))));
        InetAddress address = InetAddress.getByName(bind);
        this.server = new Server(ServerParts.requestThreads());
        this.connector = ServerParts.connector(server, http, access);
        connector.setHost(address.getHostAddress());
        connector.setPort(port);
        connector.setIdleTimeout(http.idleTimeout().toMillis());
        // a burst of connections (a hundred scrapers at once) waits in the kernel's queue, not in SYN retries
        connector.setAcceptQueueSize(ACCEPT_QUEUE);
        server.addConnector(connector);
        server.setHandler(new Router());
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowCauses(false);
        server.setErrorHandler(errors);
        try {
            server.start();
            access.watch();
        } catch (Exception e) {
            close();
            throw e instanceof IOException io ? io : new IOException("cannot serve on " + bind + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** Routes every request; answers probes itself and hands every other endpoint on. */
    private final class Router extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPath();
            Endpoint endpoint = endpoints.get(path);
            if (endpoint == null) {
                endpoint = ticket(path, query(request.getHttpURI().getQuery()));
            }
            String method = request.getMethod();
            boolean readOnly = "GET".equals(method) || "HEAD".equals(method);
            if (endpoint == null) {
                Reply.send(response, callback, closing(new Reply(404, Reply.TEXT, "not found: " + path + " (endpoints: "
                        + String.join(", ", endpoints.keySet()) + ", " + TicketPaths.PREFIX + "{id})\n"), readOnly));
            } else if (!readOnly) {
                Reply.send(response, callback, closing(new Reply(405, Reply.TEXT, "method " + method + " not allowed; use GET or HEAD\n")
                        .with("Allow", ALLOW), false));
            } else {
                serve(request, response, callback, endpoint);
            }
            return true;
        }

        private void serve(Request request, Response response, Callback callback, Endpoint endpoint) {
            AccessTokens tokens = access.tokens();
            Caller caller = Caller.OPEN;
            if (endpoint.guard() != Guard.OPEN && tokens.required()) {
                Optional<Caller> known = caller(request, tokens);
                if (known.isEmpty()) {
                    Reply.send(response, callback, Reply.unauthorized(request));
                    return;
                }
                caller = known.get();
                if (endpoint.guard() == Guard.OPERATOR && !caller.operator()) {
                    Reply.send(response, callback, new Reply(403, Reply.TEXT, "forbidden: this endpoint answers operator tokens (*) only\n"));
                    return;
                }
            }
            Caller who = caller;
            if (endpoint.where() == Where.PROBE) {
                Reply.send(response, callback, Reply.answer(() -> endpoint.reply().apply(who)));
            } else if (endpoint.where() == Where.METRICS) {
                metrics(response, callback, MetricsPage.acceptsGzip(request.getHeaders().get(HttpHeader.ACCEPT_ENCODING)));
            } else {
                ExecutorService pool = endpoint.where() == Where.FORWARD ? forward : work;
                Supplier<Reply> reply = () -> endpoint.reply().apply(who);
                try {
                    pool.execute(() -> Reply.send(response, callback, Reply.answer(reply)));
                } catch (RejectedExecutionException e) {
                    Reply.send(response, callback, Reply.busy("too many requests waiting"));
                }
            }
        }
    }

    /** The caller of {@code request}: its bearer token's tenant, or the tenant another instance signed it for. */
    private Optional<Caller> caller(Request request, AccessTokens tokens) {
        Optional<String> token = Reply.bearer(request);
        if (token.isPresent()) {
            return tokens.tenantOf(token.get()).map(t -> new Caller(t, AccessTokens.digest(token.get())));
        }
        HttpFields headers = request.getHeaders();
        return PeerSignature.verify(tokens, headers.get(PeerSignature.TENANT), headers.get(PeerSignature.TIME),
                headers.get(PeerSignature.SIGNATURE), request.getHttpURI().getPathQuery(), time.milliseconds());
    }

    /**
     * A refusal of a request that may carry a body nobody reads: it closes the connection, so the
     * client does not send its next request on one the server is about to drop.
     */
    private static Reply closing(Reply reply, boolean readOnly) {
        return readOnly ? reply : reply.with("Connection", "close");
    }

    /** The query's parameters, decoded (the last of a repeated one wins). */
    private static Map<String, String> query(String raw) {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String name = java.net.URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                params.put(name, eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return params;
    }

    /**
     * {@code /tickets/{key}}, if {@code rawPath} is one: the ticket's key ({@link TicketKey}: its id for the
     * default tenant, {@code tenant:id} otherwise), or its id with {@code ?tenant=}; on its own pool when it
     * may ask the other instances.
     */
    private Endpoint ticket(String rawPath, Map<String, String> query) {
        Optional<String> id = TicketPaths.idOf(rawPath);
        if (id.isEmpty()) {
            return null;
        }
        boolean local = "true".equals(query.get("local"));
        String tenant = query.get("tenant");
        if (tenant != null && !TicketKey.validTenant(tenant)) {
            return new Endpoint(Where.PROBE, Guard.TOKEN, c -> new Reply(400, Reply.TEXT, "tenant must be 1 to " + TicketKey.MAX_TENANT_LENGTH
                    + " characters without ':' or control characters\n"));
        }
        String key = tenant == null ? id.get() : TicketKey.key(tenant, id.get());
        boolean asks = tickets != null && !local;
        return new Endpoint(asks ? Where.FORWARD : Where.WORK, Guard.TOKEN, c -> ticketReply(key, local, c));
    }

    /** The ticket's answer, or for a caller of another tenant 404 whether the ticket exists or not. */
    private Reply ticketReply(String key, boolean local, Caller caller) {
        if (!caller.mayRead(TicketKey.parse(key).tenant())) {
            return new Reply(404, Reply.TEXT, "not found\n");
        }
        TicketAnswer answer = tickets == null ? TicketAnswer.unknown(key) : tickets.answer(key, local, caller);
        return new Reply(200, Reply.JSON, Json.MAPPER.valueToTree(answer).toPrettyString());
    }

    /** The page, gzipped when the client accepts it (Prometheus does): about a tenth of the bytes on the wire. */
    private void metrics(Response response, Callback callback, boolean gzip) {
        if (scrapes.incrementAndGet() > MAX_SCRAPES) {
            scrapes.decrementAndGet();
            Reply.send(response, callback, Reply.busy("too many concurrent scrapes"));
            return;
        }
        Callback done = Callback.from(callback, (Runnable) scrapes::decrementAndGet);
        page.next().orTimeout(RENDER_WAIT_MS, TimeUnit.MILLISECONDS).whenComplete((body, failure) -> {
            if (failure == null) {
                Reply.send(response, done, gzip
                        ? new Reply(200, PROMETHEUS, body.gzipped(), Map.of("Content-Encoding", "gzip", "Vary", "Accept-Encoding"))
                        : new Reply(200, PROMETHEUS, body.plain(), Map.of("Vary", "Accept-Encoding")));
            } else {
                LOG.warn("/metrics could not be rendered: {}", String.valueOf(failure));
                Reply.send(response, done, Reply.busy("metrics not rendered in time"));
            }
        });
    }

    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            LOG.warn("HTTP server did not stop cleanly: {}", e.toString());
        }
        access.close();
        renderer.shutdownNow();
        work.shutdownNow();
        forward.shutdownNow();
    }
}
