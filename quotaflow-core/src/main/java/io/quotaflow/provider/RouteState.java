package io.quotaflow.provider;

import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.TransportCause;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a route can serve, in one phrase ({@code "routeState"} in {@code /status} and in a ticket's
 * status): {@code ok}, {@code unchecked}, {@code unreachable: connection refused}, {@code key refused (401)},
 * {@code model not found (404)}, {@code base URL not found (404): no /v1 at its end}, ... A route that
 * cannot serve gives its tickets no ETA.
 *
 * @param kind what kind of state it is
 * @param text the phrase shown
 */
public record RouteState(Kind kind, String text) {

    /** The kinds of state, and whether a route in one can serve. */
    public enum Kind {
        /** Not checked yet, and no call answered: taken as able to serve. */
        UNCHECKED(true),
        /** The provider answered a check or a call. */
        OK(true),
        /** No answer: connection refused, timeout, DNS, TLS. */
        UNREACHABLE(false),
        /** 401 or 403. */
        KEY_REFUSED(false),
        /** 404 for the model, or the model is not among those the provider lists. */
        MODEL_NOT_FOUND(false),
        /** 404 on the URL itself, or a redirect: the base URL is wrong. */
        BASE_URL(false),
        /** 429 insufficient_quota: the account's quota or spend limit is spent. */
        QUOTA_EXHAUSTED(false),
        /** The provider answered the start check with a 5xx or another refusal. */
        FAILING(false);

        private final boolean serves;

        Kind(boolean serves) {
            this.serves = serves;
        }
    }

    public static final RouteState UNCHECKED = new RouteState(Kind.UNCHECKED, "unchecked");
    public static final RouteState OK = new RouteState(Kind.OK, "ok");

    public RouteState {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }

    public boolean canServe() {
        return kind.serves;
    }

    public static RouteState unreachable(String cause) {
        return new RouteState(Kind.UNREACHABLE, "unreachable: " + cause);
    }

    public static RouteState keyRefused(int status) {
        return new RouteState(Kind.KEY_REFUSED, "key refused (" + status + ")");
    }

    public static RouteState modelNotFound(String how) {
        return new RouteState(Kind.MODEL_NOT_FOUND, "model not found (" + how + ")");
    }

    public static RouteState baseUrl(String why) {
        return new RouteState(Kind.BASE_URL, why);
    }

    public static RouteState quotaExhausted(int status) {
        return new RouteState(Kind.QUOTA_EXHAUSTED, "quota exhausted (" + status + ")");
    }

    public static RouteState failing(String why) {
        return new RouteState(Kind.FAILING, "failing: " + why);
    }

    /** The state a 404 at {@code url} says: the model is unknown, or the URL is (with a hint when it lacks a version). */
    public static RouteState notFound(String message, boolean baseHasVersion) {
        if (mentionsModel(message)) {
            return modelNotFound("404");
        }
        return baseUrl(baseHasVersion ? "base URL not found (404)" : "base URL not found (404): it does not end in /v1");
    }

    /** Whether {@code baseUrl}'s path ends in an API version ({@code /v1}, {@code /v1beta}, {@code /v4}). */
    public static boolean hasVersion(URI baseUrl) {
        String path = baseUrl.getPath() == null ? "" : baseUrl.getPath().replaceAll("/+$", "");
        return path.matches(".*/v[0-9]+[a-z0-9]*");
    }

    /** Whether a 404's message is about the model ({@code model_not_found}, "The model `x` does not exist"). */
    static boolean mentionsModel(String message) {
        return message != null && message.toLowerCase(Locale.ROOT).contains("model");
    }

    /**
     * What a real call's {@code outcome} says of its route, or empty when it says nothing new: a
     * connection error makes the route unreachable until a call is answered; 401/403 refuse the key;
     * a 404 names the model or the URL; a redirect, the base URL; a spent quota, the quota; any
     * answer (a 200, a 429 rate limit, a 400 about the request) makes it ok. A 5xx, a request
     * timeout or a connection the server closed says nothing here: the circuit breaker judges outages.
     */
    public static Optional<RouteState> ofCall(ModelOutcome outcome, URI baseUrl) {
        if (outcome instanceof ModelOutcome.Answered || outcome instanceof ModelOutcome.RateLimited) {
            return Optional.of(OK);
        }
        ModelOutcome.Failed f = (ModelOutcome.Failed) outcome;
        if (f.transport() != null) {
            return TransportCause.unreachable(f.transport()) ? Optional.of(unreachable(f.transport())) : Optional.empty();
        }
        return ofStatus(f, baseUrl);
    }

    /** What a failure the provider answered with (an HTTP status) says. */
    private static Optional<RouteState> ofStatus(ModelOutcome.Failed f, URI baseUrl) {
        int s = f.status();
        if (s == 401 || s == 403) {
            return Optional.of(keyRefused(s));
        }
        if (s == 404) {
            return Optional.of(notFound(f.message(), hasVersion(baseUrl)));
        }
        if (s >= 300 && s < 400) {
            return Optional.of(baseUrl("base URL redirects (" + s + ")"));
        }
        if (f.kind() == ModelOutcome.FailureKind.HALT && s == 429) {
            return Optional.of(quotaExhausted(s));
        }
        if (s == 0 || s == 408 || s == 409 || s >= 500) {
            return Optional.empty();
        }
        // any other 4xx: the provider was reached and took the key; the request itself was refused
        return Optional.of(OK);
    }

    @Override
    public String toString() {
        return text;
    }
}
