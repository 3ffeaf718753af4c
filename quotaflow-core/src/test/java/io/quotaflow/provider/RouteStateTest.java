package io.quotaflow.provider;

import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.TransportCause;
import io.quotaflow.quota.RateLimitInfo;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** How a real call's outcome classifies its route's state. */
class RouteStateTest {

    private static final URI V1 = URI.create("https://api.example.com/v1");
    private static final URI ROOT = URI.create("https://api.example.com");

    private static ModelOutcome.Failed failed(ModelOutcome.FailureKind kind, int status, String message) {
        return new ModelOutcome.Failed(kind, status, message, Optional.empty(), RateLimitInfo.EMPTY, 5);
    }

    private static ModelOutcome.Failed transport(String cause) {
        return new ModelOutcome.Failed(ModelOutcome.FailureKind.TRANSIENT, 0, "connection error: " + cause, Optional.empty(),
                RateLimitInfo.EMPTY, 5, cause);
    }

    private static String text(ModelOutcome outcome, URI base) {
        return RouteState.ofCall(outcome, base).map(RouteState::text).orElse("(no change)");
    }

    @Test
    void shouldCallTheRouteOkOnAnyAnswer() {
        assertThat(text(new ModelOutcome.Answered(Map.of(), Map.of(), "stop", 10, 2, RateLimitInfo.EMPTY, 5), V1)).isEqualTo("ok");
        assertThat(text(new ModelOutcome.RateLimited(Optional.empty(), "slow down", Optional.empty(), Optional.empty(),
                RateLimitInfo.EMPTY, 5), V1)).as("a 429 proves the key and the model").isEqualTo("ok");
        assertThat(text(failed(ModelOutcome.FailureKind.NON_RETRYABLE, 400, "bad request"), V1)).isEqualTo("ok");
        assertThat(text(failed(ModelOutcome.FailureKind.CONTEXT_LENGTH, 400, "maximum context length"), V1)).isEqualTo("ok");
    }

    @Test
    void shouldMakeTheRouteUnreachableOnAConnectionErrorNamingTheCause() {
        assertThat(text(transport(TransportCause.CONNECTION_REFUSED), V1)).isEqualTo("unreachable: connection refused");
        assertThat(text(transport(TransportCause.CONNECT_TIMEOUT), V1)).isEqualTo("unreachable: connect timeout");
        assertThat(text(transport(TransportCause.DNS), V1)).isEqualTo("unreachable: DNS: cannot resolve the host");
        assertThat(RouteState.ofCall(transport(TransportCause.CONNECTION_REFUSED), V1).orElseThrow().canServe()).isFalse();
    }

    @Test
    void shouldLeaveTimeoutsAndServerErrorsToTheCircuit() {
        assertThat(text(transport(TransportCause.TIMEOUT), V1)).as("a slow answer is not an unreachable provider").isEqualTo("(no change)");
        assertThat(text(failed(ModelOutcome.FailureKind.TRANSIENT, 503, "overloaded"), V1)).isEqualTo("(no change)");
        assertThat(text(failed(ModelOutcome.FailureKind.TRANSIENT, 529, "overloaded"), V1)).isEqualTo("(no change)");
    }

    @Test
    void shouldNameRefusalsOfTheKeyModelUrlAndQuota() {
        assertThat(text(failed(ModelOutcome.FailureKind.HALT, 401, "Incorrect API key provided"), V1)).isEqualTo("key refused (401)");
        assertThat(text(failed(ModelOutcome.FailureKind.HALT, 403, "forbidden"), V1)).isEqualTo("key refused (403)");
        assertThat(text(failed(ModelOutcome.FailureKind.HALT, 404, "The model `gpt-x` does not exist or you do not have access to it."), V1))
                .isEqualTo("model not found (404)");
        assertThat(text(failed(ModelOutcome.FailureKind.HALT, 404, "Invalid URL (POST /chat/completions)"), ROOT))
                .isEqualTo("base URL not found (404): it does not end in /v1");
        assertThat(text(failed(ModelOutcome.FailureKind.HALT, 404, "Invalid URL (POST /v1/chat/completions)"), V1))
                .isEqualTo("base URL not found (404)");
        assertThat(text(failed(ModelOutcome.FailureKind.HALT, 301, "the base URL redirects"), V1)).isEqualTo("base URL redirects (301)");
        assertThat(text(failed(ModelOutcome.FailureKind.HALT, 429, "You exceeded your current quota"), V1)).isEqualTo("quota exhausted (429)");
    }

    @Test
    void shouldTellAVersionedBaseUrl() {
        assertThat(RouteState.hasVersion(V1)).isTrue();
        assertThat(RouteState.hasVersion(URI.create("https://generativelanguage.googleapis.com/v1beta/openai/"))).isFalse();
        assertThat(RouteState.hasVersion(URI.create("https://generativelanguage.googleapis.com/v1beta"))).isTrue();
        assertThat(RouteState.hasVersion(URI.create("http://localhost:8089/v1/"))).isTrue();
        assertThat(RouteState.hasVersion(ROOT)).isFalse();
    }

    @Test
    void shouldServeOnlyInTheServingKinds() {
        assertThat(RouteState.UNCHECKED.canServe()).isTrue();
        assertThat(RouteState.OK.canServe()).isTrue();
        assertThat(RouteState.keyRefused(401).canServe()).isFalse();
        assertThat(RouteState.modelNotFound("404").canServe()).isFalse();
        assertThat(RouteState.failing("HTTP 503").canServe()).isFalse();
    }
}
