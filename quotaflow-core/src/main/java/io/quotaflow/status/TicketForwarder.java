package io.quotaflow.status;

import io.quotaflow.records.Json;
import io.quotaflow.settings.Secret;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Asks the other instances of the application for a ticket this one does not know: the ticket id
 * is not the key the stores are partitioned by (scopes are), so every other instance is asked
 * ({@code GET /tickets/{id}?local=true}, which never forwards again), all at once, and the first
 * that knows it answers. Whatever has not answered when the overall timeout is up is skipped, so a
 * slow or gone instance costs at most that timeout, however many instances there are. The id is
 * percent-encoded ({@link TicketPaths}); the bearer token, when set, is sent to every peer; with
 * TLS the peers are asked over HTTPS.
 */
public final class TicketForwarder {

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    private final Supplier<List<String>> peers;
    private final Duration timeout;
    private final Secret token;
    private final String scheme;
    private final HttpClient http;

    /** {@code peers}: {@code host:port} of the other instances' HTTP servers, asked over plain HTTP without a token. */
    public TicketForwarder(Supplier<List<String>> peers) {
        this(peers, null, null, DEFAULT_TIMEOUT);
    }

    /**
     * {@code tls}: the context to ask the peers over HTTPS with (null: plain HTTP); {@code token}:
     * sent as {@code Authorization: Bearer} (null: none); {@code timeout}: the longest a question waits.
     */
    public TicketForwarder(Supplier<List<String>> peers, SSLContext tls, Secret token, Duration timeout) {
        this.peers = Objects.requireNonNull(peers, "peers");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.token = token;
        this.scheme = tls == null ? "http" : "https";
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER);
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.http = builder.build();
    }

    /** The answer of an other instance that knows {@code id}, the first to say so within the timeout. */
    public Optional<TicketAnswer> ask(String id) {
        List<String> targets = peers.get();
        if (targets.isEmpty()) {
            return Optional.empty();
        }
        String path = TicketPaths.of(id) + "?local=true";
        CompletableFuture<Optional<TicketAnswer>> first = new CompletableFuture<>();
        AtomicInteger open = new AtomicInteger(targets.size());
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (String peer : targets) {
            HttpRequest request;
            try {
                request = request(URI.create(scheme + "://" + peer + path));
            } catch (IllegalArgumentException e) {
                settle(first, open, Optional.empty());
                continue;
            }
            CompletableFuture<HttpResponse<String>> call = http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
            calls.add(call);
            call.whenComplete((response, failure) -> settle(first, open, failure == null ? known(response) : Optional.empty()));
        }
        try {
            return first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the slow ones are skipped
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            calls.forEach(c -> c.cancel(true));
        }
    }

    private HttpRequest request(URI uri) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        if (token != null) {
            b.header("Authorization", "Bearer " + token.reveal());
        }
        return b.build();
    }

    /** The first known answer wins; once every peer has answered without one, nobody knows it. */
    private static void settle(CompletableFuture<Optional<TicketAnswer>> first, AtomicInteger open, Optional<TicketAnswer> answer) {
        if (answer.isPresent()) {
            first.complete(answer);
        }
        if (open.decrementAndGet() == 0) {
            first.complete(Optional.empty());
        }
    }

    private static Optional<TicketAnswer> known(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            return Optional.empty();
        }
        try {
            TicketAnswer answer = Json.MAPPER.readValue(response.body(), TicketAnswer.class);
            return answer.known() ? Optional.of(answer) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            // not an answer: that instance does not know it
            return Optional.empty();
        }
    }
}
