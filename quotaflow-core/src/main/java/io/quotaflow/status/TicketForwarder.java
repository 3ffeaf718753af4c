package io.quotaflow.status;

import io.quotaflow.records.Json;
import io.quotaflow.settings.TlsIdentity;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * percent-encoded ({@link TicketPaths}). A question names the caller's tenant and is signed with
 * the digest of the caller's token ({@link PeerSignature}), so a peer applies the same tenant rule and
 * no token leaves the instance; with TLS the peers are asked over HTTPS, trusting what the current
 * TLS identity trusts (a reloaded identity takes effect on the next question).
 */
public final class TicketForwarder {

    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    private final Supplier<List<String>> peers;
    private final Duration timeout;
    private final Supplier<Optional<TlsIdentity>> tls;
    private final Time time;
    /** The client of the identity it was built for (null: plain HTTP); rebuilt when the identity is reloaded. */
    private volatile Client client;

    private record Client(TlsIdentity identity, HttpClient http) {
    }

    /** {@code peers}: {@code host:port} of the other instances' HTTP servers, asked over plain HTTP. */
    public TicketForwarder(Supplier<List<String>> peers) {
        this(peers, Optional::empty, DEFAULT_TIMEOUT, Time.SYSTEM);
    }

    /**
     * {@code tls}: the identity whose peer context the peers are asked over HTTPS with, as it is now
     * (empty: plain HTTP); {@code timeout}: the longest a question waits; {@code time}: the clock
     * questions are signed with.
     */
    public TicketForwarder(Supplier<List<String>> peers, Supplier<Optional<TlsIdentity>> tls, Duration timeout, Time time) {
        this.peers = Objects.requireNonNull(peers, "peers");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.tls = Objects.requireNonNull(tls, "tls");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** Asks as {@code access} says now: its TLS identity, reloaded or not. */
    public TicketForwarder(Supplier<List<String>> peers, HttpAccess access, Duration timeout, Time time) {
        this(peers, access::tls, timeout, time);
    }

    private Client client() {
        TlsIdentity identity = tls.get().orElse(null);
        Client current = client;
        if (current == null || current.identity() != identity) {
            HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER);
            if (identity != null) {
                builder.sslContext(identity.peerContext());
            }
            current = new Client(identity, builder.build());
            client = current;
        }
        return current;
    }

    /** The answer of an other instance that knows {@code id}, asked for an open API's caller. */
    public Optional<TicketAnswer> ask(String id) {
        return ask(id, Caller.OPEN);
    }

    /** The answer of an other instance that knows {@code id} and lets {@code caller} see it, the first to say so within the timeout. */
    public Optional<TicketAnswer> ask(String id, Caller caller) {
        List<String> targets = peers.get();
        if (targets.isEmpty()) {
            return Optional.empty();
        }
        String path = TicketPaths.of(id) + "?local=true";
        Client http = client();
        String scheme = http.identity() == null ? "http" : "https";
        Map<String, String> signed = PeerSignature.headers(caller, path, time.milliseconds());
        CompletableFuture<Optional<TicketAnswer>> first = new CompletableFuture<>();
        AtomicInteger open = new AtomicInteger(targets.size());
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (String peer : targets) {
            HttpRequest request;
            try {
                request = request(URI.create(scheme + "://" + peer + path), signed);
            } catch (IllegalArgumentException e) {
                settle(first, open, Optional.empty());
                continue;
            }
            CompletableFuture<HttpResponse<String>> call = http.http().sendAsync(request, HttpResponse.BodyHandlers.ofString());
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

    private HttpRequest request(URI uri, Map<String, String> signed) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout).GET();
        signed.forEach(b::header);
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
