package io.quotaflow.metrics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.status.QueueView;
import io.quotaflow.status.TicketAnswer;
import io.quotaflow.status.TicketService;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.records.TicketKey;
import io.quotaflow.dispatch.DispatcherSnapshot;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * The instance's HTTP endpoints, matched exactly and answering GET only (404 for any other path,
 * 405 with {@code Allow: GET} for any other method): {@code /metrics} (Prometheus text),
 * {@code /health/live} and {@code /health/ready} ({@link HealthCheck}; {@code /health} is the
 * readiness check under its old name) and {@code /status} (JSON per owned scope: queue depth and
 * oldest age per priority, quota use, cooldown, circuit, estimated wait, and per priority when
 * what waits now is expected to be done) and {@code /tickets/{id}} (one ticket's status and ETA,
 * {@link TicketService}; {@code ?local=true} answers from this instance only; the path names the ticket
 * by its key, {@code tenant:id}, or by its id with {@code ?tenant=}).
 */
public final class StatusServer implements AutoCloseable {

    /** What an endpoint answers. */
    private record Response(int status, String type, String body) {
    }

    private interface Endpoint {
        Response get();
    }

    private static final String JSON = "application/json";
    private static final String TEXT = "text/plain; charset=utf-8";
    private static final String TICKETS = "/tickets/";

    private final HttpServer server;
    private final Map<String, Endpoint> endpoints = new LinkedHashMap<>();
    private final TicketService tickets;

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
        this.tickets = tickets;
        endpoints.put("/metrics", () -> new Response(200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        Endpoint ready = () -> report(HealthCheck.ready(streams.state(), streams.wasRunning(),
                metrics.notReadyReason(System.currentTimeMillis()), metrics.haltedRoutes()));
        endpoints.put("/health/live", () -> report(HealthCheck.live(streams.state(), streams.aliveThreads(),
                metrics.notLiveReason(System.currentTimeMillis()), metrics.haltedRoutes())));
        endpoints.put("/health/ready", ready);
        endpoints.put("/health", ready);
        endpoints.put("/status", () -> new Response(200, JSON, status(metrics, streams)));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bind), port), 0);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "quotaflow-status");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
    }

    private static Response report(HealthCheck.Report report) {
        return new Response(report.status(), JSON, report.json());
    }

    private void handle(HttpExchange ex) throws IOException {
        try {
            drain(ex.getRequestBody());
            String path = ex.getRequestURI().getPath();
            Endpoint endpoint = endpoints.get(path);
            if (endpoint == null && path.startsWith(TICKETS) && path.length() > TICKETS.length()
                    && path.indexOf('/', TICKETS.length()) < 0) {
                Map<String, String> query = query(ex.getRequestURI().getQuery());
                endpoint = () -> ticket(path.substring(TICKETS.length()), query.get("tenant"), "true".equals(query.get("local")));
            }
            if (endpoint == null) {
                send(ex, new Response(404, TEXT, "not found: " + ex.getRequestURI().getPath() + " (endpoints: "
                        + String.join(", ", endpoints.keySet()) + ")\n"));
            } else if (!"GET".equals(ex.getRequestMethod())) {
                ex.getResponseHeaders().set("Allow", "GET");
                send(ex, new Response(405, TEXT, "method " + ex.getRequestMethod() + " not allowed; use GET\n"));
            } else {
                send(ex, endpoint.get());
            }
        } finally {
            ex.close();
        }
    }

    /** The query's parameters (the last of a repeated one wins); the URI has decoded them. */
    private static Map<String, String> query(String query) {
        Map<String, String> params = new LinkedHashMap<>();
        if (query != null) {
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
            }
        }
        return params;
    }

    /**
     * {@code GET /tickets/{key}}: the key as tickets are keyed ({@link TicketKey}: the id for the default
     * tenant, {@code tenant:id} otherwise), or {@code /tickets/{id}?tenant=t}.
     */
    private Response ticket(String idOrKey, String tenant, boolean local) {
        String key;
        if (tenant == null) {
            key = idOrKey;
        } else if (!TicketKey.validTenant(tenant)) {
            return new Response(400, TEXT, "tenant must be 1 to " + TicketKey.MAX_TENANT_LENGTH
                    + " characters without ':' or control characters\n");
        } else {
            key = TicketKey.key(tenant, idOrKey);
        }
        TicketAnswer answer = tickets == null ? TicketAnswer.unknown(key) : tickets.answer(key, local);
        return new Response(200, JSON, Json.MAPPER.valueToTree(answer).toPrettyString());
    }

    private static String status(PipelineMetrics metrics, StreamsProbe streams) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("streams", String.valueOf(streams.state()));
        body.put("healthy", metrics.healthy());
        body.put("calls", metrics.calls());
        body.put("http429", metrics.http429());
        body.put("classified", metrics.classifiedCount());
        body.put("retried", metrics.retriedCount());
        body.put("deadLettered", metrics.deadLetteredCount());
        body.set("republished", Json.MAPPER.valueToTree(metrics.republishedCounts()));
        body.put("recordErrors", metrics.recordErrorCount());
        body.put("streamThreadFailures", metrics.threadFailureCount());
        ArrayNode scopes = body.putArray("scopes");
        long now = System.currentTimeMillis();
        for (DispatcherSnapshot s : metrics.snapshots()) {
            ObjectNode scope = Json.MAPPER.valueToTree(s);
            metrics.tickets().views().stream().filter(v -> v.scope().equals(s.scope())).findFirst()
                    .ifPresent(v -> scope.set("tail", tail(v, now)));
            scopes.add(scope);
        }
        return body.toPrettyString();
    }

    /** Per priority: what waits at it and above, and when that is expected to be done. */
    private static ObjectNode tail(QueueView view, long now) {
        ObjectNode tail = Json.MAPPER.createObjectNode();
        for (Priority p : Priority.values()) {
            ObjectNode node = tail.putObject(p.wireName());
            int waiting = view.tail(p).tickets();
            node.put("waiting", waiting);
            if (waiting > 0) {
                node.put("estimatedDoneAt", Instant.ofEpochMilli(view.tailEta(p, now).doneAt()).toString());
            } else {
                node.putNull("estimatedDoneAt");
            }
        }
        tail.put("measured", view.rates().measured());
        return tail;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        long total = 0;
        int n;
        while (total < 1 << 20 && (n = in.read(buffer)) > 0) {
            total += n;
        }
    }

    private static void send(HttpExchange ex, Response response) throws IOException {
        byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", response.type());
        ex.sendResponseHeaders(response.status(), bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
