package io.quotaflow.http.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.dispatch.report.DispatcherSnapshot;
import io.quotaflow.metrics.PipelineMetrics;
import io.quotaflow.metrics.StreamsProbe;
import io.quotaflow.provider.RouteStateBoard;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;
import io.quotaflow.status.QueueView;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * The body of {@code /status}: the streams' state, whether every route serves, every route's state, the
 * instance's counts, and per owned scope its snapshot with the tail of its queue per priority.
 */
final class StatusPage {

    /** The state prefix of a scope whose circuit is not closed. */
    private static final String CIRCUIT = "CIRCUIT_";

    private StatusPage() {
    }

    /** The routes that cannot serve now, with their state. */
    static Map<String, String> unserved(RouteStateBoard routes) {
        Map<String, String> out = new java.util.TreeMap<>();
        routes.entries().forEach((name, e) -> {
            if (!e.state().canServe()) {
                out.put(name, e.state().text());
            }
        });
        return out;
    }

    /**
     * Whether every route can serve: none halted or with its circuit open (of the scopes this instance owns),
     * and every route's state ({@code routes}) one that serves.
     */
    static boolean healthy(PipelineMetrics metrics, RouteStateBoard routes) {
        return metrics.healthy() && routes.allServe()
                && metrics.snapshots().stream().noneMatch(s -> s.state().startsWith(CIRCUIT));
    }

    static String render(PipelineMetrics metrics, StreamsProbe streams, RouteStateBoard routes) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("streams", String.valueOf(streams.state()));
        body.put("healthy", healthy(metrics, routes));
        ArrayNode states = body.putArray("routes");
        routes.entries().forEach((name, e) -> states.addObject().put("route", name).put("routeState", e.state().text())
                .put("canServe", e.state().canServe()).put("since", e.sinceIso()));
        body.put("calls", metrics.calls());
        body.put("http429", metrics.http429());
        body.put("classified", metrics.classifiedCount());
        body.put("retried", metrics.retriedCount());
        body.put("deadLettered", metrics.deadLetteredCount());
        body.set("republished", Json.MAPPER.valueToTree(metrics.republishedCounts()));
        body.put("recordErrors", metrics.recordErrorCount());
        body.put("streamThreadFailures", metrics.threadFailureCount());
        ArrayNode scopes = body.putArray("scopes");
        long now = metrics.time().milliseconds();
        for (DispatcherSnapshot s : metrics.snapshots()) {
            ObjectNode scope = Json.MAPPER.valueToTree(s);
            Optional<QueueView> view = metrics.tickets().views().stream().filter(v -> v.scope().equals(s.scope())).findFirst();
            boolean serves = !s.state().startsWith("HALTED") && !s.state().startsWith(CIRCUIT)
                    && view.map(v -> v.routes().stream().allMatch(r -> routes.state(r).canServe())).orElse(true);
            if (!serves) {
                // no estimate while the scope cannot serve: 0 ms would read as "now"
                scope.putNull("estimatedWaitMs");
            }
            view.ifPresent(v -> scope.set("tail", tail(v, now, serves)));
            scopes.add(scope);
        }
        return body.toPrettyString();
    }

    /** Per priority: what waits at it and above, and when that is expected to be done. */
    static ObjectNode tail(QueueView view, long now, boolean serves) {
        ObjectNode tail = Json.MAPPER.createObjectNode();
        for (Priority p : Priority.values()) {
            ObjectNode node = tail.putObject(p.wireName());
            int waiting = view.tail(p).tickets();
            node.put("waiting", waiting);
            if (waiting > 0 && serves) {
                node.put("estimatedDoneAt", Instant.ofEpochMilli(view.tailEta(p, now).doneAt()).toString());
            } else {
                node.putNull("estimatedDoneAt");
            }
        }
        tail.put("measured", view.rates().measured());
        return tail;
    }
}
