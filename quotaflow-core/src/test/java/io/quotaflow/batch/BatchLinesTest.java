package io.quotaflow.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.OpenAiChatClient;
import io.quotaflow.records.Json;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.Secret;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BatchLinesTest {

    private final BatchLines lines = new BatchLines(new OpenAiChatClient(ModelSettings.of(URI.create("http://localhost:1/v1"),
            "gpt-4o-mini", Secret.of("sk-test-lines"))));

    @AfterEach
    void close() {
        lines.close();
    }

    static String completion(String content) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("finish_reason", "stop");
        choice.putObject("message").put("content", content);
        root.putObject("usage").put("prompt_tokens", 40).put("completion_tokens", 18);
        return root.toString();
    }

    static String outputLine(String customId, int status, String body) {
        return "{\"id\":\"batch_req_1\",\"custom_id\":\"" + customId + "\",\"response\":{\"status_code\":" + status
                + ",\"request_id\":\"req_1\",\"body\":" + body + "},\"error\":null}";
    }

    @Test
    void shouldWriteOneRequestLinePerCallNamingItsCustomIdAndTheChatEndpoint() throws Exception {
        byte[] line = BatchLines.requestLine("call-1", Json.MAPPER.createObjectNode().put("model", "gpt-4o-mini"));

        String text = new String(line, StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n").doesNotContain("\n{");
        JsonNode json = Json.MAPPER.readTree(text);
        assertThat(json.get("custom_id").asText()).isEqualTo("call-1");
        assertThat(json.get("method").asText()).isEqualTo("POST");
        assertThat(json.get("url").asText()).isEqualTo("/v1/chat/completions");
        assertThat(json.get("body").get("model").asText()).isEqualTo("gpt-4o-mini");
    }

    @Test
    void shouldMapAnOutputLineBackToItsTicketsByTheirIdsInTheRequest() {
        String content = "{\"results\":[{\"id\":\"1\",\"category\":\"billing\",\"urgency\":\"high\"},"
                + "{\"id\":\"2\",\"category\":\"shipping\",\"urgency\":\"low\"}]}";
        Map<String, BatchLines.Line> parsed = BatchLines.parse(outputLine("call-7", 200, completion(content)) + "\n\nnot json\n");
        BatchJob.Call call = new BatchJob.Call("call-7", List.of("t0:a", "t1:b"), List.of("1", "2"), 100);

        ModelOutcome outcome = lines.outcome(parsed.get("call-7"), call, 5_000);

        assertThat(parsed).containsOnlyKeys("call-7");
        assertThat(outcome).isInstanceOf(ModelOutcome.Answered.class);
        ModelOutcome.Answered answered = (ModelOutcome.Answered) outcome;
        assertThat(answered.labels()).containsEntry("t0:a", new ModelOutcome.Label("billing", "high"))
                .containsEntry("t1:b", new ModelOutcome.Label("shipping", "low"));
        assertThat(answered.promptTokens()).isEqualTo(40);
        assertThat(answered.completionTokens()).isEqualTo(18);
        assertThat(answered.latencyMs()).isEqualTo(5_000);
    }

    @Test
    void shouldReadAnErrorLineAsTheChatEndpointsAnswerWithThatStatus() {
        String body = "{\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\"}}";
        BatchLines.Line line = BatchLines.parse(outputLine("c", 500, body)).get("c");
        BatchJob.Call call = new BatchJob.Call("c", List.of("t0:a"), List.of("1"), 10);

        ModelOutcome outcome = lines.outcome(line, call, 0);

        assertThat(line.unfinished()).isFalse();
        assertThat(outcome).isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.TRANSIENT);
            assertThat(f.status()).isEqualTo(500);
        });
    }

    @Test
    void shouldTellAnExpiredLineFromAFailedOne() {
        String expired = "{\"id\":\"r\",\"custom_id\":\"x\",\"response\":null,\"error\":{\"code\":\"batch_expired\","
                + "\"message\":\"This request could not be executed before the completion window expired.\"}}";
        String failed = "{\"id\":\"r\",\"custom_id\":\"y\",\"response\":null,\"error\":{\"code\":\"invalid_request\",\"message\":\"bad\"}}";

        Map<String, BatchLines.Line> parsed = BatchLines.parse(expired + "\n" + failed + "\n");

        assertThat(parsed.get("x").unfinished()).isTrue();
        assertThat(parsed.get("y").unfinished()).isFalse();
        assertThat(lines.outcome(parsed.get("y"), new BatchJob.Call("y", List.of("k"), List.of("1"), 1), 0))
                .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.message()).contains("invalid_request"));
    }

    @Test
    void shouldHaltOnARefusedKeyAndWaitOnARateLimitOfTheBatchApiItself() {
        assertThat(lines.failure(401, "{\"error\":{\"message\":\"Incorrect API key provided\",\"code\":\"invalid_api_key\"}}"))
                .isInstanceOfSatisfying(ModelOutcome.Failed.class, f -> assertThat(f.kind()).isEqualTo(ModelOutcome.FailureKind.HALT));
        assertThat(lines.failure(429, "{\"error\":{\"message\":\"Enqueued token limit reached for gpt-4o-mini\"}}"))
                .isInstanceOf(ModelOutcome.RateLimited.class);
    }

    @Test
    void shouldReadEveryStatusOfTheBatchApi() {
        assertThat(BatchStatus.of("in_progress")).isEqualTo(BatchStatus.IN_PROGRESS);
        assertThat(BatchStatus.of("finalizing").terminal()).isFalse();
        assertThat(BatchStatus.of("cancelling").terminal()).isFalse();
        assertThat(BatchStatus.of("completed").terminal()).isTrue();
        assertThat(BatchStatus.of("expired").leavesUnfinished()).isTrue();
        assertThat(BatchStatus.of("cancelled").leavesUnfinished()).isTrue();
        assertThat(BatchStatus.of("failed").leavesUnfinished()).isFalse();
        assertThat(BatchStatus.of("something_new")).as("unknown: not finished, within the window").isEqualTo(BatchStatus.UNKNOWN);
        assertThat(BatchStatus.of(null).terminal()).isFalse();
    }
}
