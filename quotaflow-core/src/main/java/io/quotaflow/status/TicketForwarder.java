package io.quotaflow.status;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.records.Json;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Asks the other instances of the application for a ticket this one does not know: the ticket id
 * is not the key the stores are partitioned by (scopes are), so every other instance is asked
 * ({@code GET /tickets/{id}?local=true}, which never forwards again) and the first that knows it
 * answers. An instance that does not answer in time is skipped.
 */
public final class TicketForwarder {

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final Supplier<List<String>> peers;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    /** {@code peers}: {@code host:port} of the other instances' HTTP servers. */
    public TicketForwarder(Supplier<List<String>> peers) {
        this.peers = Objects.requireNonNull(peers, "peers");
    }

    /** The answer of the first other instance that knows {@code id}. */
    public Optional<TicketAnswer> ask(String id) {
        String path = "/tickets/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20") + "?local=true";
        for (String peer : peers.get()) {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://" + peer + path))
                        .timeout(TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    continue;
                }
                TicketAnswer answer = Json.MAPPER.treeToValue(parse(response.body()), TicketAnswer.class);
                if (answer.known()) {
                    return Optional.of(answer);
                }
            } catch (IOException | IllegalArgumentException e) {
                // that instance is gone or not serving: the others may know
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    private static JsonNode parse(String body) throws IOException {
        return Json.MAPPER.readTree(body);
    }
}
