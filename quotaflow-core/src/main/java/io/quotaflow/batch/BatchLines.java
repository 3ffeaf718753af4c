package io.quotaflow.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.llm.ChatPrompt;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpHeaders;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSONL of the Batch API: one request line per call ({@code custom_id}, {@code method},
 * {@code url}, {@code body}: the chat-completions body the call would have sent), and the output and
 * error files' lines ({@code custom_id}, {@code response.status_code}, {@code response.body},
 * {@code error.code}) mapped back to each call's outcome, as the chat endpoint's answer would have been.
 */
public final class BatchLines implements AutoCloseable {

    /** The endpoint every line asks. */
    public static final String ENDPOINT = "/v1/chat/completions";
    /** The error code of a request the job did not get to before its window ended. */
    public static final String EXPIRED = "batch_expired";
    private static final HttpHeaders NO_HEADERS = HttpHeaders.of(Map.of(), (a, b) -> true);

    /**
     * One line of an output or error file.
     *
     * @param status    the response's HTTP status, 0 when there is no response
     * @param body      the response's body as JSON text, null without one
     * @param errorCode the line's {@code error.code}, null without an error
     */
    public record Line(String customId, int status, String body, String errorCode, String errorMessage) {

        /** The job did not get to this request ({@code batch_expired}, or cancelled before it ran). */
        public boolean unfinished() {
            return status == 0 && (EXPIRED.equals(errorCode) || "batch_cancelled".equals(errorCode));
        }
    }

    private final OpenAiChatClient answers;

    /** @param answers reads each response as the chat endpoint's (its closed sets, its key for redaction) */
    public BatchLines(OpenAiChatClient answers) {
        this.answers = answers;
    }

    /** The request line of call {@code customId} with chat-completions body {@code body}, newline included. */
    public static byte[] requestLine(String customId, ObjectNode body) {
        ObjectNode line = Json.MAPPER.createObjectNode();
        line.put("custom_id", customId);
        line.put("method", "POST");
        line.put("url", ENDPOINT);
        line.set("body", body);
        try {
            byte[] json = Json.MAPPER.writeValueAsBytes(line);
            byte[] out = new byte[json.length + 1];
            System.arraycopy(json, 0, out, 0, json.length);
            out[json.length] = '\n';
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The lines of an output or error file by {@code custom_id}; a line that is not JSON or names no call is skipped. */
    public static Map<String, Line> parse(String content) {
        Map<String, Line> lines = new LinkedHashMap<>();
        if (content == null) {
            return lines;
        }
        for (String raw : content.split("\n")) {
            line(raw).ifPresent(line -> lines.put(line.customId(), line));
        }
        return lines;
    }

    /** One line of an output or error file, if it is one. */
    public static Optional<Line> line(String raw) {
        JsonNode node;
        try {
            node = raw == null || raw.isBlank() ? null : Json.MAPPER.readTree(raw);
        } catch (IOException | RuntimeException e) {
            node = null;
        }
        String customId = node == null ? null : text(node.get("custom_id"));
        if (customId == null) {
            return Optional.empty();
        }
        JsonNode response = present(node.get("response"));
        JsonNode body = response == null ? null : present(response.get("body"));
        JsonNode error = present(node.get("error"));
        return Optional.of(new Line(customId, response == null ? 0 : response.path("status_code").asInt(0),
                body == null ? null : body.toString(), error == null ? null : text(error.get("code")),
                error == null ? null : text(error.get("message"))));
    }

    private static JsonNode present(JsonNode node) {
        return node == null || node.isNull() ? null : node;
    }

    /** What {@code line} means for {@code call}, as the chat endpoint's answer would; {@code latencyMs}: the job's wait. */
    public ModelOutcome outcome(Line line, BatchJob.Call call, long latencyMs) {
        if (line.status() == 0) {
            String message = "batch line failed: " + (line.errorCode() == null ? "no response" : line.errorCode())
                    + (line.errorMessage() == null ? "" : ": " + line.errorMessage());
            return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0, message, Optional.empty(), RateLimitInfo.EMPTY,
                    latencyMs);
        }
        String body = line.body() == null ? "" : line.body();
        return answers.interpret(line.status(), NO_HEADERS, body, request(call), latencyMs);
    }

    /** What a failed HTTP call of the Batch API means ({@code status}, {@code body}): halt, retry, or give up. */
    public ModelOutcome failure(int status, String body) {
        return answers.interpret(status, NO_HEADERS, body == null ? "" : body, new ModelRequest("batch", new ChatPrompt(List.of(),
                List.of(), List.of(), null, 0, 0)), 0);
    }

    /** The request {@code call} stood for, as far as reading its answer needs: its tickets' keys and ids. */
    private static ModelRequest request(BatchJob.Call call) {
        List<ModelItem> items = new ArrayList<>(call.keys().size());
        call.keys().forEach(k -> items.add(new ModelItem(k, null, null)));
        return new ModelRequest(call.customId(), new ChatPrompt(items, call.wireIds(), List.of(), null, 0, 0));
    }

    @Override
    public void close() {
        answers.close();
    }

    private static String text(JsonNode node) {
        return node == null || node.isNull() ? null : node.asText();
    }
}
