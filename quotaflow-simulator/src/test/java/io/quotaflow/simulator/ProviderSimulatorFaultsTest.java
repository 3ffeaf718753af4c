package io.quotaflow.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Fault injection of the {@link ProviderSimulator}, over localhost HTTP. */
class ProviderSimulatorFaultsTest {

    private static final String KEY = "sk-test-faults";

    private final ObjectMapper mapper = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** The injected monotonic clock, in nanoseconds; frozen unless a test moves it. */
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private ProviderSimulator sim;

    @AfterEach
    void stop() {
        if (sim != null) {
            sim.close();
        }
    }

    /** A simulator without latency on the injected clock, with generous limits unless the test narrows them. */
    private ProviderSimulator start(SimulatorConfig.Builder builder) {
        sim = ProviderSimulator.start(builder.port(0).apiKeys(Set.of(KEY)).noLatency().build(), clock::get);
        return sim;
    }

    private static SimulatorConfig.Builder generous() {
        return SimulatorConfig.builder().rpm(1_000_000).tpm(1_000_000_000L);
    }

    private void advanceTo(double secondsSinceStart) {
        clock.set(1_000_000_000L + (long) (secondsSinceStart * 1e9));
    }

    private String chatBody(String... ids) throws JsonProcessingException {
        ObjectNode req = mapper.createObjectNode();
        req.put("model", "gpt-4o-mini");
        req.put("max_tokens", 200);
        ArrayNode messages = req.putArray("messages");
        messages.addObject().put("role", "system").put("content", "You classify customer support tickets.");
        ObjectNode user = mapper.createObjectNode();
        ArrayNode tickets = user.putArray("tickets");
        for (String id : ids) {
            tickets.addObject().put("id", id).put("subject", "Invoice " + id).put("body", "I was charged twice.");
        }
        messages.addObject().put("role", "user").put("content", mapper.writeValueAsString(user));
        return mapper.writeValueAsString(req);
    }

    private HttpResponse<String> chat(Duration timeout, String... ids) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Authorization", "Bearer " + KEY)
                .POST(HttpRequest.BodyPublishers.ofString(chatBody(ids)))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> chat(String... ids) throws Exception {
        return chat(Duration.ofSeconds(10), ids);
    }

    private HttpResponse<String> admin(String method, String path, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + sim.port() + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode error(HttpResponse<String> response) throws Exception {
        return mapper.readTree(response.body()).path("error");
    }

    private String content(HttpResponse<String> response) throws Exception {
        return mapper.readTree(response.body()).path("choices").get(0).path("message").path("content").asText();
    }

    @Test
    void shouldAnswerEachServerFaultWithItsStatusAndAnOpenAiShapedBodyWithoutDebitingTheBuckets() throws Exception {
        // two requests of capacity and a frozen clock: one is spent here, so any debit by a fault
        // would turn the 200 after the faults into a 429
        start(SimulatorConfig.builder().rpm(24).tpm(1_000_000).burstSeconds(5));
        assertThat(chat("T-0").statusCode()).isEqualTo(200);

        sim.setFaults(Faults.builder().p500(1).build());
        HttpResponse<String> r500 = chat("T-1");
        assertThat(r500.statusCode()).isEqualTo(500);
        assertThat(error(r500).path("type").asText()).isEqualTo("server_error");
        assertThat(error(r500).path("message").asText()).isNotBlank();
        assertThat(r500.headers().firstValue("content-type")).hasValue("application/json");

        sim.setFaults(Faults.builder().p503(1).build());
        HttpResponse<String> r503 = chat("T-1");
        assertThat(r503.statusCode()).isEqualTo(503);
        assertThat(error(r503).path("message").asText()).isEqualTo("The server is overloaded or not ready yet.");

        sim.setFaults(Faults.builder().p529(1).build());
        HttpResponse<String> r529 = chat("T-1");
        assertThat(r529.statusCode()).isEqualTo(529);
        assertThat(error(r529).path("type").asText()).isEqualTo("overloaded_error");

        sim.setFaults(Faults.none());
        assertThat(chat("T-1").statusCode()).isEqualTo(200);
        assertThat(chat("T-1").statusCode()).isEqualTo(429);

        SimulatorStats stats = sim.stats();
        assertThat(stats.requestsWithStatus(500)).isEqualTo(1);
        assertThat(stats.requestsWithStatus(503)).isEqualTo(1);
        assertThat(stats.requestsWithStatus(529)).isEqualTo(1);
        assertThat(stats.requestsAdmitted()).isEqualTo(2);
        assertThat(stats.faultsInjected()).containsEntry("500", 1L).containsEntry("503", 1L).containsEntry("529", 1L);
        assertThat(stats.totalRequests()).isEqualTo(6);
        assertThat(stats.inFlight()).isZero();
    }

    @Test
    void shouldAnswerAMalformedTwoHundredThatIsAdmittedAndDebited() throws Exception {
        // two requests of capacity and a frozen clock
        start(SimulatorConfig.builder().rpm(24).tpm(1_000_000).burstSeconds(5));
        assertThat(chat("T-0").statusCode()).isEqualTo(200);

        sim.setFaults(Faults.builder().pMalformed(1).build());
        HttpResponse<String> response = chat("T-1", "T-2");

        assertThat(response.statusCode()).isEqualTo(200);
        String content = content(response);
        assertThat(content).isNotEmpty().startsWith("{");
        assertThatThrownBy(() -> mapper.readTree(content)).isInstanceOf(JsonProcessingException.class);
        JsonNode completion = mapper.readTree(response.body());
        assertThat(completion.path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
        assertThat(completion.path("usage").path("completion_tokens").asInt()).isPositive();

        sim.setFaults(Faults.none());
        assertThat(chat("T-1").statusCode()).as("the malformed answer used the only request of capacity").isEqualTo(429);
        SimulatorStats stats = sim.stats();
        assertThat(stats.requestsAdmitted()).isEqualTo(2);
        assertThat(stats.faultsInjected("malformed")).isEqualTo(1);
        assertThat(stats.requestsWithStatus(200)).isEqualTo(2);
    }

    @Test
    void shouldOmitExactlyOneTicketOfTheBatch() throws Exception {
        start(generous().faults(Faults.builder().pMissingItem(1).build()));

        HttpResponse<String> response = chat("T-1", "T-2", "T-3");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode results = mapper.readTree(content(response)).path("results");
        List<String> ids = new ArrayList<>();
        results.forEach(r -> ids.add(r.path("id").asText()));
        assertThat(ids).hasSize(2).isSubsetOf("T-1", "T-2", "T-3").doesNotHaveDuplicates();
        assertThat(sim.stats().faultsInjected("missing-item")).isEqualTo(1);
        assertThat(sim.stats().requestsAdmitted()).isEqualTo(1);
    }

    @Test
    void shouldHangWithoutHoldingAServerThread() throws Exception {
        start(generous().faults(Faults.builder().pHang(1).build()));

        assertThatThrownBy(() -> chat(Duration.ofMillis(300), "T-1")).isInstanceOf(HttpTimeoutException.class);

        // more hung requests than handler threads, then a normal request still answers at once
        List<CompletableFuture<HttpResponse<String>>> hung = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            hung.add(http.sendAsync(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/chat/completions"))
                    .header("Authorization", "Bearer " + KEY).POST(HttpRequest.BodyPublishers.ofString(chatBody("H-" + i)))
                    .build(), HttpResponse.BodyHandlers.ofString()));
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> sim.stats().faultsInjected("hang") == 9);
        sim.setFaults(Faults.none());
        long started = System.nanoTime();
        assertThat(chat(Duration.ofSeconds(2), "T-2").statusCode()).isEqualTo(200);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(1_500);

        SimulatorStats stats = sim.stats();
        assertThat(stats.inFlight()).isEqualTo(9);
        assertThat(stats.requestsAdmitted()).isEqualTo(1);
        assertThat(hung).noneMatch(CompletableFuture::isDone);
        hung.forEach(f -> f.cancel(true));
    }

    @Test
    void shouldSendTheHeadersAndHalfTheBodyThenStallWithoutHoldingAServerThread() throws Exception {
        start(generous().faults(Faults.builder().pStallBody(1).build()));
        URI uri = URI.create(sim.baseUrl());
        byte[] request = chatBody("T-1").getBytes(java.nio.charset.StandardCharsets.UTF_8);

        try (java.net.Socket socket = new java.net.Socket(uri.getHost(), uri.getPort())) {
            socket.getOutputStream().write(("POST " + uri.getPath() + "/chat/completions HTTP/1.1\r\nHost: sim\r\n"
                    + "Authorization: Bearer " + KEY + "\r\nContent-Type: application/json\r\nContent-Length: " + request.length
                    + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            socket.getOutputStream().write(request);
            socket.setSoTimeout(5_000);
            java.io.InputStream in = socket.getInputStream();
            String head = readHead(in);
            assertThat(head).startsWith("HTTP/1.1 200").containsIgnoringCase("x-ratelimit-remaining-requests");
            int length = Integer.parseInt(head.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
            byte[] half = in.readNBytes(length / 2);
            assertThat(new String(half, java.nio.charset.StandardCharsets.UTF_8)).startsWith("{").contains("chat.completion");

            socket.setSoTimeout(700);
            assertThatThrownBy(in::read).as("nothing after half the body").isInstanceOf(java.net.SocketTimeoutException.class);

            // the stalled answer holds no handler thread: another request answers at once
            sim.setFaults(Faults.none());
            assertThat(chat(Duration.ofSeconds(10), "T-2").statusCode()).as("answered while the stall holds for 120 s").isEqualTo(200);
            SimulatorStats stats = sim.stats();
            assertThat(stats.faultsInjected("stall-body")).isEqualTo(1);
            assertThat(stats.requestsAdmitted()).as("a stalled answer was admitted").isEqualTo(2);
            assertThat(stats.requestsWithStatus(200)).isEqualTo(2);
            assertThat(stats.inFlight()).as("the stalled exchange is held").isEqualTo(1);
        }
    }

    private static String readHead(java.io.InputStream in) throws java.io.IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new java.io.EOFException("closed in the headers: " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }

    @Test
    void shouldAnswer503DuringAnOutageWindowWithoutDebitingTheBuckets() throws Exception {
        // one request of capacity refilled in one second: a debit at 4 s would leave it half empty at 4.5 s
        start(SimulatorConfig.builder().rpm(60).tpm(1_000_000).burstSeconds(1)
                .faults(Faults.builder().outage(Duration.ofSeconds(4), Duration.ofMillis(4_500)).outageSeconds(30, 40).build()));
        assertThat(chat("T-0").statusCode()).isEqualTo(200);

        advanceTo(4);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = chat("T-1");
            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(error(response).path("message").asText()).isEqualTo("The server is overloaded or not ready yet.");
        }
        advanceTo(4.499);
        assertThat(chat("T-1").statusCode()).isEqualTo(503);

        advanceTo(4.5);
        assertThat(sim.uptime()).isEqualTo(Duration.ofMillis(4_500));
        assertThat(chat("T-1").statusCode()).as("the window is [start, end) and the bucket is still full").isEqualTo(200);
        assertThat(chat("T-1").statusCode()).isEqualTo(429);

        advanceTo(35);
        assertThat(chat("T-1").statusCode()).isEqualTo(503);
        advanceTo(40);
        assertThat(chat("T-1").statusCode()).isEqualTo(200);

        SimulatorStats stats = sim.stats();
        assertThat(stats.faultsInjected("outage")).isEqualTo(5);
        assertThat(stats.requestsWithStatus(503)).isEqualTo(5);
        assertThat(stats.requestsAdmitted()).isEqualTo(3);
    }

    @Test
    void shouldToggleFailAuthAtRunTimeThroughTheAdminEndpoint() throws Exception {
        start(generous());
        assertThat(chat("T-1").statusCode()).isEqualTo(200);

        HttpResponse<String> set = admin("POST", "/admin/faults", "{\"failAuth\":true}");
        assertThat(set.statusCode()).isEqualTo(200);
        assertThat(mapper.readTree(set.body()).path("failAuth").asBoolean()).isTrue();
        assertThat(sim.faults().failAuth()).isTrue();

        HttpResponse<String> refused = chat("T-1");
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(error(refused).path("code").asText()).isEqualTo("invalid_api_key");
        assertThat(refused.body()).doesNotContain(KEY);
        HttpResponse<String> models = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/models"))
                .header("Authorization", "Bearer " + KEY).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(models.statusCode()).isEqualTo(401);

        JsonNode shown = mapper.readTree(admin("GET", "/admin/faults", null).body());
        assertThat(shown.path("failAuth").asBoolean()).isTrue();
        assertThat(shown.path("p500").asDouble()).isZero();

        assertThat(admin("POST", "/admin/faults", "{\"failAuth\":false}").statusCode()).isEqualTo(200);
        assertThat(chat("T-1").statusCode()).isEqualTo(200);
        assertThat(sim.stats().faultsInjected("auth")).as("chat and models").isEqualTo(2);
        assertThat(sim.stats().requestsWithStatus(401)).isEqualTo(1);
    }

    @Test
    void shouldRoundTripFaultsThroughTheAdminEndpointAndRejectInvalidBodies() throws Exception {
        start(generous());
        Faults faults = Faults.builder().p500(0.1).p503(0.05).p529(0.05).pMalformed(0.02).pMissingItem(0.03)
                .pHang(0.01).pStallBody(0.04).outageSeconds(60, 90).outage(Duration.ofMillis(1_500), Duration.ofMillis(2_250)).build();

        HttpResponse<String> set = admin("POST", "/admin/faults", mapper.writeValueAsString(FaultsJson.toJson(faults)));
        assertThat(set.statusCode()).isEqualTo(200);
        assertThat(sim.faults()).isEqualTo(faults);
        JsonNode shown = mapper.readTree(admin("GET", "/admin/faults", null).body());
        assertThat(FaultsJson.fromJson(shown)).isEqualTo(faults);
        assertThat(shown.path("outages").toString()).isEqualTo("[\"60:90\",\"1.5:2.25\"]");

        assertThat(admin("POST", "/admin/faults", "{\"outages\":[{\"start\":5,\"end\":7.5}]}").statusCode()).isEqualTo(200);
        assertThat(sim.faults()).isEqualTo(Faults.builder().outage(Duration.ofSeconds(5), Duration.ofMillis(7_500)).build());

        for (String bad : List.of("{\"p_500\":0.5}", "{\"p500\":1.5}", "{\"p500\":0.6,\"p503\":0.6}",
                "{\"outages\":[\"9:3\"]}", "{\"failAuth\":\"yes\"}", "[1]", "not json")) {
            HttpResponse<String> refused = admin("POST", "/admin/faults", bad);
            assertThat(refused.statusCode()).as(bad).isEqualTo(400);
            assertThat(error(refused).path("message").asText()).as(bad).isNotBlank();
        }
        assertThat(sim.faults()).as("a refused body changes nothing").isEqualTo(
                Faults.builder().outage(Duration.ofSeconds(5), Duration.ofMillis(7_500)).build());
        assertThat(admin("DELETE", "/admin/faults", null).statusCode()).isEqualTo(405);
    }

    @Test
    void shouldHonourTheProbabilitiesDeterministicallyForASeed() throws Exception {
        start(generous().seed(7).faults(Faults.builder().p500(0.5).build()));
        List<Integer> first = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            first.add(chat("T-" + i).statusCode());
        }
        long failures = first.stream().filter(s -> s == 500).count();
        assertThat(failures).isBetween(60L, 140L);
        assertThat(first).containsOnly(200, 500);
        assertThat(sim.stats().faultsInjected("500")).isEqualTo(failures);
        assertThat(sim.stats().requestsAdmitted()).isEqualTo(200 - failures);
        sim.close();

        // the same seed and the same sequence of requests give the same sequence of answers
        start(generous().seed(7).faults(Faults.builder().p500(0.5).build()));
        List<Integer> second = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            second.add(chat("T-" + i).statusCode());
        }
        assertThat(second).isEqualTo(first.subList(0, 40));
    }

    @Test
    void shouldMixSeveralFaultKindsInRoughlyTheirProportions() throws Exception {
        start(generous().seed(11).faults(Faults.builder().p503(0.2).p529(0.2).pMalformed(0.2).build()));
        int malformed = 0;
        for (int i = 0; i < 150; i++) {
            HttpResponse<String> response = chat("T-" + i);
            if (response.statusCode() == 200) {
                try {
                    mapper.readTree(content(response));
                } catch (JsonProcessingException e) {
                    malformed++;
                }
            }
        }
        SimulatorStats stats = sim.stats();
        assertThat(stats.requestsWithStatus(503)).isBetween(12L, 50L);
        assertThat(stats.requestsWithStatus(529)).isBetween(12L, 50L);
        assertThat((long) malformed).isEqualTo(stats.faultsInjected("malformed")).isBetween(12L, 50L);
        assertThat(stats.requestsWithStatus(200)).isEqualTo(150 - stats.requestsWithStatus(503) - stats.requestsWithStatus(529));
    }
}
