package io.quotaflow.cli;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code quotaflow status ID}: asks an instance's {@code GET /tickets/{id}} and prints the answer. */
class StatusCommandTest {

    private static final String KNOWN = "{\"id\":\"T 1\",\"state\":\"pending\",\"route\":\"default\",\"priority\":\"bulk\","
            + "\"tenant\":\"acme\",\"position\":4,\"estimatedStartAt\":\"2026-01-01T00:00:05Z\",\"estimatedDoneAt\":\"2026-01-01T00:00:06Z\"}";

    private final List<String> asked = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final List<String> queries = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            asked.add(ex.getRequestURI().getRawPath());
            queries.add(String.valueOf(ex.getRequestURI().getRawQuery()));
            authorizations.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
            String id = ex.getRequestURI().getPath().substring("/tickets/".length());
            byte[] body = (id.equals("T 1") ? KNOWN : "{\"id\":\"" + id + "\",\"state\":\"unknown\"}").getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        return run(System.getenv(), args);
    }

    private Run run(java.util.Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = QuotaflowCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
        return new Run(code, out.toString(), err.toString());
    }

    private String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Test
    void shouldPrintTheAnswerOfAKnownTicketAndExitZero() {
        Run r = run("status", "--url", url(), "T 1");

        assertThat(r.code()).isZero();
        assertThat(r.out().strip()).isEqualTo(KNOWN);
        assertThat(asked).containsExactly("/tickets/T%201");
    }

    @Test
    void shouldExitOneForAnUnknownTicket() {
        Run r = run("status", "--url", url() + "/", "nope");

        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("\"state\":\"unknown\"");
        assertThat(asked).containsExactly("/tickets/nope");
    }

    @Test
    void shouldEncodeASlashInTheIdAndSendTheConfiguredToken(@TempDir Path dir) throws IOException {
        Path token = Files.writeString(dir.resolve("token"), "status-command-token-0123456789\n");
        Path config = Files.writeString(dir.resolve("q.properties"), "http.auth-token-file=" + token + "\n");

        Run r = run("status", "--config", config.toString(), "--url", url(), "acme/T 1");

        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(asked).containsExactly("/tickets/acme%2FT%201");
        assertThat(authorizations).containsExactly("Bearer status-command-token-0123456789");
        assertThat(r.err()).doesNotContain("status-command-token");
        assertThat(run("status", "--url", url(), "T 1").code()).isZero();
        assertThat(authorizations).as("no token configured, none sent").endsWith("null");
    }

    @Test
    void shouldExitOneWhenNoInstanceAnswers() {
        server.stop(0);

        Run r = run("status", "--url", url(), "T 1");

        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("status: ").contains("no instance answered");
        assertThat(r.err()).as("a refused connection is named, not printed as null").doesNotContain("null")
                .contains(url() + "/tickets/T%201: could not connect");
    }

    @Test
    void shouldRefuseUrlAndHttpPortTogether() {
        Run r = run("status", "--url", url(), "--http-port", "9464", "T 1");

        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("give --url (one instance) or --http-port (the port of the instances found through "
                + "--bootstrap-servers), not both");
        assertThat(asked).isEmpty();
    }

    @Test
    void shouldRefuseUrlAndApplicationIdTogether() {
        Run r = run("status", "--url", url(), "--application-id", "other", "T 1");

        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("give --url (one instance) or --application-id (the application whose instances are "
                + "found through --bootstrap-servers), not both");
        assertThat(asked).isEmpty();
    }

    @Test
    void shouldAskForTheTenantItsHelpNamesInTheEnvironment() {
        Run r = run(java.util.Map.of("QUOTAFLOW_STATUS_TENANT", "acme"), "status", "--url", url(), "T-9");

        assertThat(r.err()).doesNotContain("unknown environment variable");
        assertThat(asked).containsExactly("/tickets/T-9");
        assertThat(queries).containsExactly("tenant=acme");
    }

    @Test
    void shouldRequireATicketId() {
        assertThat(run("status", "--url", url()).code()).isEqualTo(2);
    }

    @Test
    void shouldPrintAFinishedTicketFromTheTopicsInTheShapeOfAnInstancesAnswer() throws Exception {
        io.quotaflow.records.TicketKey key = io.quotaflow.records.TicketKey.parse("acme:T-7");
        var dead = new io.quotaflow.publish.FinishedTicketLookup.Found("tickets.dlq", 1, 42, 1_700_000_000_000L,
                "{\"id\":\"T-7\"}".getBytes(StandardCharsets.UTF_8),
                java.util.Map.of(io.quotaflow.records.DeadLetterHeaders.ERROR_KIND, "bad-input"));
        var answer = io.quotaflow.records.Json.MAPPER.readTree(StatusCommand.finishedStatus(key, dead));
        var instance = io.quotaflow.records.Json.MAPPER.valueToTree(io.quotaflow.status.TicketAnswer.unknown("acme:T-7"));
        List<String> fields = new java.util.ArrayList<>();
        answer.fieldNames().forEachRemaining(fields::add);
        List<String> instanceFields = new java.util.ArrayList<>();
        instance.fieldNames().forEachRemaining(instanceFields::add);
        assertThat(fields).startsWith(instanceFields.toArray(String[]::new)).endsWith("source", "kind");
        assertThat(answer.get("state").asText()).isEqualTo("dead-lettered");
        assertThat(answer.get("tenant").asText()).isEqualTo("acme");
        assertThat(answer.get("estimatedDoneAt").asText()).isEqualTo("2023-11-14T22:13:20Z");
        assertThat(answer.get("source").asText()).isEqualTo("tickets.dlq-1@42");
        assertThat(answer.get("kind").asText()).isEqualTo("bad-input");
        assertThat(answer.get("route").isNull()).isTrue();
    }
}
