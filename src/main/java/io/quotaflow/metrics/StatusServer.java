package io.quotaflow.metrics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.ticket.Json;
import io.quotaflow.topology.DispatcherSnapshot;
import org.apache.kafka.streams.KafkaStreams;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@code /metrics} (Prometheus text), {@code /health} (200 UP or 503 DOWN: streams not running, or
 * a scope halted) and {@code /status} (JSON: queue depth and oldest age per priority, quota use,
 * cooldown, estimated wait, per owned scope).
 */
public final class StatusServer implements AutoCloseable {

    private final HttpServer server;

    public StatusServer(int port, PrometheusMeterRegistry registry, PipelineMetrics metrics, Supplier<KafkaStreams.State> state)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress(port), 0);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "quotaflow-status");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/metrics", ex -> send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
        com.sun.net.httpserver.HttpHandler ready = ex -> {
            KafkaStreams.State s = state.get();
            String reason = metrics.notReadyReason(System.currentTimeMillis());
            boolean up = (s == KafkaStreams.State.RUNNING || s == KafkaStreams.State.REBALANCING) && reason == null;
            ObjectNode body = Json.MAPPER.createObjectNode();
            body.put("status", up ? "UP" : "DOWN");
            body.put("streams", String.valueOf(s));
            if (reason != null) {
                body.put("reason", reason);
            }
            send(ex, up ? 200 : 503, "application/json", body.toString());
        };
        server.createContext("/health", ready);
        server.createContext("/health/ready", ready);
        server.createContext("/health/live", ex -> {
            KafkaStreams.State s = state.get();
            boolean up = s != KafkaStreams.State.ERROR && s != KafkaStreams.State.PENDING_ERROR && s != KafkaStreams.State.NOT_RUNNING;
            ObjectNode body = Json.MAPPER.createObjectNode();
            body.put("status", up ? "UP" : "DOWN");
            body.put("streams", String.valueOf(s));
            send(ex, up ? 200 : 503, "application/json", body.toString());
        });
        server.createContext("/status", ex -> {
            ObjectNode body = Json.MAPPER.createObjectNode();
            body.put("streams", String.valueOf(state.get()));
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
            for (DispatcherSnapshot s : metrics.snapshots()) {
                scopes.add(Json.MAPPER.valueToTree(s));
            }
            send(ex, 200, "application/json", body.toPrettyString());
        });
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
