package io.quotaflow.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.ArrayList;

/**
 * The bundled demo dataset ({@code quotaflow-testkit/src/main/resources/demo}, made by
 * {@code dev/generate-demo-tickets.py}): about 500 support tickets in English and Portuguese,
 * 4 malformed lines and one ticket ({@value #HUGE_TICKET_ID}) far over any context budget as written (a
 * pasted log: the lean prompt cuts it to head and tail, so the pipeline classifies it), plus the
 * category and urgency each ticket was written to have.
 */
public final class DemoDataset {

    /** Classpath resource of the tickets, one JSON object per line. */
    public static final String TICKETS_RESOURCE = "/demo/tickets.jsonl";
    /** Classpath resource of the intended labels: {@code {"id","category","urgency"}} per line. */
    public static final String LABELS_RESOURCE = "/demo/labels.jsonl";
    /** The ticket whose body (~700 000 characters, mostly a log) no model can take whole. */
    public static final String HUGE_TICKET_ID = "T-HUGE-1";

    /** The intended classification of one demo ticket. */
    public record Label(String id, String category, String urgency) {
    }

    private DemoDataset() {
    }

    /** Opens the tickets file; the caller closes the stream. */
    public static InputStream openTickets() {
        return open(TICKETS_RESOURCE);
    }

    /** Opens the labels file; the caller closes the stream. */
    public static InputStream openLabels() {
        return open(LABELS_RESOURCE);
    }

    /** The intended labels by ticket id, in file order. */
    public static Map<String, Label> labels() {
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Label> labels = new LinkedHashMap<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(openLabels(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = mapper.readTree(line);
                Label label = new Label(node.path("id").asText(), node.path("category").asText(),
                        node.path("urgency").asText());
                labels.put(label.id(), label);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + LABELS_RESOURCE, e);
        }
        return Collections.unmodifiableMap(labels);
    }

    private static InputStream open(String resource) {
        InputStream in = DemoDataset.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("resource " + resource + " is missing from the classpath");
        }
        return in;
    }

    /** The first {@code n} records of the bundled set, repeated with suffixed ids when {@code n} exceeds it. */
    public static byte[] lines(int n) {
        List<String> base = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(DemoDataset.openTickets(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    base.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (n <= 0) {
            n = base.size();
        }
        StringBuilder out = new StringBuilder();
        int written = 0;
        for (int round = 1; written < n; round++) {
            for (String line : base) {
                if (written >= n) {
                    break;
                }
                if (round == 1) {
                    out.append(line).append('\n');
                    written++;
                    continue;
                }
                try {
                    var node = Json.MAPPER.readTree(line);
                    if (node != null && node.isObject() && node.hasNonNull("id") && !DemoDataset.HUGE_TICKET_ID.equals(node.get("id").asText())) {
                        ((com.fasterxml.jackson.databind.node.ObjectNode) node).put("id", node.get("id").asText() + "-" + round);
                        out.append(Json.MAPPER.writeValueAsString(node)).append('\n');
                        written++;
                    }
                } catch (IOException e) {
                    // malformed lines appear once, in the first round
                }
            }
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
