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
        String boundary = "b-test";
        String multipart = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"in.jsonl\"\r\nContent-Type: application/jsonl\r\n\r\n"
                + jsonl + "\r\n--" + boundary + "--\r\n";
        HttpResponse<String> file = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/files")).header("Authorization", "Bearer " + KEY)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(multipart, StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(file.statusCode()).as(file.body()).isEqualTo(200);
        String create = mapper.createObjectNode().put("input_file_id", mapper.readTree(file.body()).get("id").asText())
                .put("endpoint", "/v1/chat/completions").put("completion_window", "24h").toString();
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

    @Test
    void shouldReadTheFilePartOfAMultipartBody() {
        byte[] body = ("--x\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nbatch\r\n--x\r\nContent-Disposition: form-data; "
                + "name=\"file\"; filename=\"a\"\r\n\r\n{\"a\":1}\n{\"b\":2}\n\r\n--x--\r\n").getBytes(StandardCharsets.UTF_8);

        assertThat(SimBatches.boundary("multipart/form-data; boundary=\"x\"")).isEqualTo("x");
        assertThat(new String(SimBatches.part(body, "x", "file"), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}\n{\"b\":2}\n");
        assertThat(new String(SimBatches.part(body, "x", "purpose"), StandardCharsets.UTF_8)).isEqualTo("batch");
        assertThat(SimBatches.part(body, "x", "other")).isNull();
    }
}
