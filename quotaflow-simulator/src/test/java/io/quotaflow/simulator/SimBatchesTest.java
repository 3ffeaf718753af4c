package io.quotaflow.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The Batch API over HTTP: upload, create, poll until the delay has passed, read the files; expiry part-way. */
class SimBatchesTest {

    private static final String KEY = "sk-test-batches-http";

    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).apiKeys(Set.of(KEY)).noLatency()
            .rpm(1).tpm(1_000).build());

    @AfterEach
    void stop() {
        sim.close();
    }

    private String line(String customId, String ticketId) throws Exception {
        ObjectNode body = mapper.createObjectNode().put("model", "gpt-4o-mini").put("max_tokens", 40);
        body.putArray("messages").addObject().put("role", "user")
                .put("content", "{\"tickets\":[{\"id\":\"" + ticketId + "\",\"subject\":\"Refund\",\"body\":\"I was charged twice\"}]}");
        ObjectNode line = mapper.createObjectNode().put("custom_id", customId).put("method", "POST").put("url", "/v1/chat/completions");
        line.set("body", body);
        return mapper.writeValueAsString(line) + "\n";
    }

    private JsonNode submit(String jsonl) throws Exception {
        return submit(jsonl, "{}");
    }

    private JsonNode submit(String jsonl, String metadata) throws Exception {
        String boundary = "b-test";
        String multipart = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"in.jsonl\"\r\nContent-Type: application/jsonl\r\n\r\n"
                + jsonl + "\r\n--" + boundary + "--\r\n";
        HttpResponse<String> file = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/files")).header("Authorization", "Bearer " + KEY)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(multipart, StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(file.statusCode()).as(file.body()).isEqualTo(200);
        String create = mapper.createObjectNode().put("input_file_id", mapper.readTree(file.body()).get("id").asText())
                .put("endpoint", "/v1/chat/completions").put("completion_window", "24h").set("metadata", mapper.readTree(metadata))
                .toString();
        HttpResponse<String> job = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/batches")).header("Authorization", "Bearer " + KEY)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(create)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(job.statusCode()).as(job.body()).isEqualTo(200);
        return mapper.readTree(job.body());
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).header("Authorization", "Bearer " + KEY)
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return path.endsWith("/content") ? mapper.createObjectNode().put("text", r.body()) : mapper.readTree(r.body());
    }

    @Test
    void shouldAnswerEveryLineOfACompletedJobOutsideTheKeysPerMinuteBuckets() throws Exception {
        sim.setBatches(300, -1);
        JsonNode job = submit(line("c1", "t-1") + line("c2", "t-2") + line("c3", "t-3"));
        assertThat(job.get("status").asText()).isEqualTo("validating");
        assertThat(job.get("request_counts").get("total").asInt()).isEqualTo(3);
        String id = job.get("id").asText();

        await().atMost(Duration.ofSeconds(5)).until(() -> get("/batches/" + id).get("status").asText().equals("completed"));
        JsonNode done = get("/batches/" + id);
        String output = get("/files/" + done.get("output_file_id").asText() + "/content").get("text").asText();

        List<JsonNode> lines = output.lines().map(l -> {
            try {
                return mapper.readTree(l);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).toList();
        assertThat(lines).extracting(l -> l.get("custom_id").asText()).containsExactlyInAnyOrder("c1", "c2", "c3");
        assertThat(lines).allSatisfy(l -> {
            assertThat(l.get("response").get("status_code").asInt()).as("rpm=1 holds no batch line back").isEqualTo(200);
            assertThat(l.get("response").get("body").get("choices").get(0).get("message").get("content").asText()).contains("results");
        });
        assertThat(done.get("request_counts").get("completed").asInt()).isEqualTo(3);
        assertThat(sim.batchJobsUnread()).isZero();
    }

    @Test
    void shouldExpireAJobPartWayWithTheRestInTheErrorFile() throws Exception {
        sim.setBatches(0, 1);
        String id = submit(line("c1", "t-1") + line("c2", "t-2")).get("id").asText();

        JsonNode done = get("/batches/" + id);
        String errors = get("/files/" + done.get("error_file_id").asText() + "/content").get("text").asText();

        assertThat(done.get("status").asText()).isEqualTo("expired");
        assertThat(done.get("request_counts").get("completed").asInt()).isEqualTo(1);
        assertThat(mapper.readTree(errors.strip()).get("custom_id").asText()).isEqualTo("c2");
        assertThat(mapper.readTree(errors.strip()).get("error").get("code").asText()).isEqualTo("batch_expired");
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).header("Authorization", "Bearer " + KEY)
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldKeepMetadataListJobsNewestFirstPageByPageAndCancelOne() throws Exception {
        sim.setBatches(BatchBehaviour.DEFAULT.withDelay(60_000));
        String first = submit(line("c1", "t-1"), "{\"quotaflow_job\":\"k1\",\"quotaflow_scope\":\"s\"}").get("id").asText();
        String second = submit(line("c2", "t-2"), "{\"quotaflow_job\":\"k2\"}").get("id").asText();
        String third = submit(line("c3", "t-3")).get("id").asText();

        JsonNode page1 = get("/batches?limit=2");
        assertThat(page1.get("data")).extracting(j -> j.get("id").asText()).containsExactly(third, second);
        assertThat(page1.get("has_more").asBoolean()).isTrue();
        JsonNode page2 = get("/batches?limit=2&after=" + page1.get("last_id").asText());
        assertThat(page2.get("data")).extracting(j -> j.get("id").asText()).containsExactly(first);
        assertThat(page2.get("has_more").asBoolean()).isFalse();
        assertThat(page2.get("data").get(0).get("metadata").get("quotaflow_job").asText()).isEqualTo("k1");
        assertThat(get("/batches/" + first).get("metadata").get("quotaflow_scope").asText()).isEqualTo("s");

        HttpResponse<String> cancelled = send("POST", "/batches/" + second + "/cancel");
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        assertThat(mapper.readTree(cancelled.body()).get("status").asText()).isEqualTo("cancelled");
        assertThat(get("/batches/" + second).get("status").asText()).isEqualTo("cancelled");
    }

    @Test
    void shouldRefuseAJobPastItsEnqueuedLimitWithTokenLimitExceededAndReportItsOwnCount() throws Exception {
        sim.setBatches(BatchBehaviour.DEFAULT.withDelay(500).withEnqueuedLimit(150, 1.0));
        JsonNode fits = submit(line("c1", "t-1"));
        JsonNode over = submit(line("c2", "t-2") + line("c3", "t-3") + line("c4", "t-4"));

        JsonNode refused = get("/batches/" + over.get("id").asText());
        assertThat(refused.get("status").asText()).isEqualTo("failed");
        JsonNode error = refused.get("errors").get("data").get(0);
        assertThat(error.get("code").asText()).isEqualTo("token_limit_exceeded");
        assertThat(error.get("message").asText()).contains("Enqueued token limit reached").contains("Limit: 150 enqueued tokens");
        assertThat(sim.batchTokenLimitRefusals()).isEqualTo(1);

        String id = fits.get("id").asText();
        await().atMost(Duration.ofSeconds(5)).until(() -> get("/batches/" + id).get("status").asText().equals("completed"));
        assertThat(get("/batches/" + id).get("usage").get("input_tokens").asLong()).as("its own count: messages + max_tokens")
                .isGreaterThan(40).isLessThanOrEqualTo(150);
        // once it ended, its tokens are free again
        assertThat(get("/batches/" + submit(line("c5", "t-5")).get("id").asText()).get("status").asText()).isNotEqualTo("failed");
    }

    @Test
    void shouldFailVanishAndBreakOutputLinesAsTold() throws Exception {
        sim.setBatches(BatchBehaviour.DEFAULT.withDelay(0).withFailEvery(2).withVanishEvery(3).withMalformedEvery(2));
        String ok = submit(line("c1", "t-1") + line("c2", "t-2")).get("id").asText();
        String failed = submit(line("c3", "t-3")).get("id").asText();
        String vanished = submit(line("c4", "t-4")).get("id").asText();

        JsonNode done = get("/batches/" + ok);
        assertThat(done.get("status").asText()).isEqualTo("completed");
        List<String> lines = get("/files/" + done.get("output_file_id").asText() + "/content").get("text").asText().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines).filteredOn(l -> {
            try {
                mapper.readTree(l);
                return false;
            } catch (Exception e) {
                return true;
            }
        }).as("every second output line is broken").hasSize(1);
        JsonNode fail = get("/batches/" + failed);
        assertThat(fail.get("status").asText()).isEqualTo("failed");
        assertThat(fail.get("errors").get("data").get(0).get("code").asText()).isEqualTo("server_error");
        assertThat(send("GET", "/batches/" + vanished).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/batches/" + vanished).statusCode()).as("forever").isEqualTo(404);
        assertThat(get("/batches?limit=100").get("data")).extracting(j -> j.get("id").asText()).doesNotContain(vanished);
    }

    @Test
    void shouldReadTheFilePartOfAMultipartBody() {
        byte[] body = ("--x\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n--x\r\nContent-Disposition: form-data; "
                + "name=\"file\"; filename=\"a\"\r\n\r\n{\"a\":1}\n{\"b\":2}\n\r\n--x--\r\n").getBytes(StandardCharsets.UTF_8);

        assertThat(Multipart.boundary("multipart/form-data; boundary=\"x\"")).isEqualTo("x");
        assertThat(new String(Multipart.part(body, "x", "file"), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}\n{\"b\":2}\n");
        assertThat(new String(Multipart.part(body, "x", "purpose"), StandardCharsets.UTF_8)).isEqualTo("batch");
        assertThat(Multipart.part(body, "x", "other")).isNull();
    }
}
