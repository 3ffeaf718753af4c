package io.quotaflow.provider;

import io.quotaflow.settings.Keys;
import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.quota.RateLimitHeaders;
import io.quotaflow.quota.RateLimitInfo;
import io.quotaflow.records.Json;
import io.quotaflow.settings.RouteSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.Redactor;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.net.http.HttpHeaders;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The verdicts of one route's check ({@link ProviderProbe}), from what {@code GET /models} and the
 * optional 1-token call answered: one {@link ProbeLine} per check ({@code reachable}, {@code key},
 * {@code model}, {@code context window}, {@code rate limits}; {@code base URL}, {@code quota} or
 * {@code call} when those fail) and the {@link RouteState} they leave the route in. A failure that
 * makes the later checks meaningless ends the check. Not thread-safe: one check's answers arrive one
 * after the other.
 */
final class RouteCheck {

    /** Fields a models list may carry the context window in (vLLM, OpenRouter, LiteLLM and others). */
    private static final List<String> CONTEXT_FIELDS = List.of("context_window", "context_length", "max_model_len",
            "max_context_length", "max_input_tokens");
    private static final int MAX_MESSAGE = 160;
    private static final int MODELS_NAMED = 5;

    private final RouteSettings route;
    private final boolean call;
    private final Time time;
    private final String subject;
    private final boolean versioned;
    private final List<ProbeLine> lines = new ArrayList<>();
    private RouteState state;
    private boolean stopped;
    private boolean keyDone;
    private boolean modelDone;
    private final Listing listing = new Listing();
    private String unverified = "GET /models gave no model list";
    private HttpHeaders limitHeaders;
    private boolean answered;

    RouteCheck(RouteSettings route, boolean call, Time time) {
        this.route = route;
        this.call = call;
        this.time = time;
        this.subject = "route " + route.name();
        this.versioned = RouteState.hasVersion(route.model().baseUrl());
    }

    private String base() {
        return Redactor.url(route.model().baseUrl());
    }

    /** What {@code GET {base}/models} answered. */
    void models(ProviderProbe.Exchange e) {
        if (e.transport() != null) {
            fail("reachable", e.where() + ": " + e.transport(), RouteState.unreachable(e.transport()));
            return;
        }
        int s = e.status();
        if (s >= 300 && s < 400) {
            redirected(e);
            return;
        }
        ok("reachable", base() + " answered GET /models (" + s + ") in " + e.millis() + " ms");
        if (hasRateLimitHeaders(e.headers())) {
            limitHeaders = e.headers();
        }
        if (s == 401 || s == 403) {
            fail("key", "key refused (" + s + "): " + message(e), RouteState.keyRefused(s));
        } else if (s == 200) {
            modelList(e);
        } else if (s == 404 && !versioned) {
            fail("base URL", e.where() + " answers 404 and the base URL does not end in a version such as /v1: try " + base() + "/v1",
                    RouteState.notFound(null, false));
        } else if (s >= 500 && !call) {
            fail("provider", "GET /models answered HTTP " + s + ": " + message(e), RouteState.failing("HTTP " + s + " on GET /models"));
        } else {
            unverified = "GET /models answered " + s + (s == 404 ? " (this provider does not list its models)" : ": " + message(e));
        }
    }

    private void modelList(ProviderProbe.Exchange e) {
        JsonNode data = json(e.body()).path("data");
        if (!data.isArray()) {
            unverified = "GET /models answered 200 without a model list";
            return;
        }
        ok("key", "accepted (GET /models 200)");
        keyDone = true;
        String model = route.model().model();
        listing.listed = false;
        for (JsonNode m : data) {
            String id = m.path("id").asText("");
            listing.count++;
            if (listing.names.size() < MODELS_NAMED) {
                listing.names.add(id);
            }
            if (id.equals(model)) {
                listing.listed = true;
                for (String field : CONTEXT_FIELDS) {
                    if (m.path(field).canConvertToLong() && m.path(field).asLong() > 0) {
                        listing.context = OptionalLong.of(m.path(field).asLong());
                        break;
                    }
                }
            }
        }
    }

    /** Whether the 1-token call is still to be made. */
    boolean wantsCall() {
        return call && !stopped;
    }

    /** What the 1-token chat completion answered. */
    void chat(ProviderProbe.Exchange e) {
        if (e.transport() != null) {
            fail("call", e.where() + ": " + e.transport(), RouteState.unreachable(e.transport()));
            return;
        }
        int s = e.status();
        String message = message(e);
        if (!refused(e, s, message)) {
            answeredOrFailed(e, s, message);
        }
    }

    /** A redirect, a refused key or a 404: the check ends on it (true), or none of those (false). */
    private boolean refused(ProviderProbe.Exchange e, int s, String message) {
        if (s >= 300 && s < 400) {
            redirected(e);
        } else if (s == 401 || s == 403) {
            fail("key", "key refused (" + s + "): " + message, RouteState.keyRefused(s));
        } else if (s == 404) {
            RouteState found = RouteState.notFound(message, versioned);
            if (found.kind() == RouteState.Kind.MODEL_NOT_FOUND) {
                fail("model", route.model().model() + " not found (404): " + message, found);
            } else {
                fail("base URL", e.where() + " answers 404" + (versioned ? ": is the base URL right?"
                        : " and the base URL does not end in a version such as /v1: try " + base() + "/v1"), found);
            }
        } else {
            return false;
        }
        return true;
    }

    private void answeredOrFailed(ProviderProbe.Exchange e, int s, String message) {
        if (s == 429 && quotaSpent(message)) {
            fail("quota", "quota exhausted (429): " + message, RouteState.quotaExhausted(s));
        } else if (s == 200 || s == 429) {
            answered = true;
            limitHeaders = hasRateLimitHeaders(e.headers()) ? e.headers() : limitHeaders;
            if (!keyDone) {
                ok("key", "accepted (" + (s == 200 ? "a 1-token call answered" : "429: rate limited, not refused") + ")");
                keyDone = true;
            }
            modelDone = true;
            ok("model", route.model().model() + (s == 200 ? " answered a 1-token call in " + e.millis() + " ms"
                    : " accepted (the call was rate limited right now: 429)")
                    + (Boolean.FALSE.equals(listing.listed) ? " (GET /models does not list it)" : ""));
        } else if (s >= 500) {
            fail("call", "the provider answered HTTP " + s + ": " + message, RouteState.failing("HTTP " + s));
        } else {
            fail("call", "the provider refused a 1-token call (" + s + "): " + message, RouteState.failing("a call refused (" + s + ")"));
        }
    }

    /** The check could not go on ({@code why}: no secret). */
    void broken(String why) {
        if (!stopped) {
            fail("check", why, RouteState.failing(why));
        }
    }

    /** The remaining lines, and the report. */
    ProbeReport finish() {
        if (!stopped) {
            if (!keyDone) {
                skip("key", "not verified: " + unverified + (call ? "" : "; without --no-call the check makes one tiny call"));
            }
            if (!modelDone) {
                model();
            }
            if (!stopped) {
                context();
                rateLimits();
            }
        }
        return new ProbeReport(route.name(), lines, state == null ? RouteState.OK : state);
    }

    private void model() {
        String model = route.model().model();
        if (Boolean.TRUE.equals(listing.listed)) {
            ok("model", model + " is listed by GET /models");
        } else if (Boolean.FALSE.equals(listing.listed)) {
            fail("model", model + " is not among the " + listing.count + " models GET /models lists (" + String.join(", ", listing.names)
                    + (listing.count > listing.names.size() ? ", ..." : "") + ")", RouteState.modelNotFound("not listed by GET /models"));
        } else {
            skip("model", "not verified: " + unverified);
        }
    }

    private void context() {
        int configured = route.contextTokens();
        if (listing.context.isEmpty()) {
            ok("context window", configured + " tokens, as configured (the provider does not say)");
        } else if (configured > listing.context.getAsLong()) {
            lines.add(new ProbeLine(ProbeLine.Verdict.FAIL, subject, "context window", "the provider says " + listing.context.getAsLong()
                    + " tokens; the configured " + configured + " is larger: set " + key("context-tokens", Keys.LLM_CONTEXT_TOKENS)
                    + "=" + listing.context.getAsLong()));
        } else {
            ok("context window", configured + " tokens configured; the provider says " + listing.context.getAsLong());
        }
    }

    private void rateLimits() {
        int rpm = route.quota().rpm();
        int tpm = route.quota().tpm();
        String configured = "configured rpm " + QuotaSettings.limitText(rpm) + ", tpm " + QuotaSettings.limitText(tpm);
        if (limitHeaders == null) {
            if (answered) {
                ok("rate limits", noHeaders(configured));
            } else {
                skip("rate limits", "not checked: only a call's answer carries them" + (call ? "" : " (--no-call)"));
            }
            return;
        }
        TreeSet<String> names = new TreeSet<>();
        limitHeaders.map().keySet().stream().map(n -> n.toLowerCase(Locale.ROOT)).filter(RouteCheck::rateLimitHeader).forEach(names::add);
        RateLimitInfo info = RateLimitHeaders.parse(limitHeaders::firstValue, Instant.ofEpochMilli(time.milliseconds()));
        List<String> announced = new ArrayList<>();
        List<String> above = new ArrayList<>();
        info.limitRequests().ifPresent(l -> {
            announced.add("requests " + l);
            if (rpm == QuotaSettings.NONE || rpm > l) {
                above.add("rpm " + QuotaSettings.limitText(rpm) + " is above the announced " + l + ": set " + key("rpm", Keys.QUOTA_RPM) + "=" + l);
            }
        });
        info.limitTokens().ifPresent(l -> {
            announced.add("tokens " + l);
            if (tpm == QuotaSettings.NONE || tpm > l) {
                above.add("tpm " + QuotaSettings.limitText(tpm) + " is above the announced " + l + ": set " + key("tpm", Keys.QUOTA_TPM) + "=" + l);
            }
        });
        TreeSet<String> families = new TreeSet<>();
        names.forEach(n -> families.add(n.startsWith("x-ratelimit-") ? "x-ratelimit-*" : "anthropic-ratelimit-*"));
        String seen = names.size() + " rate-limit headers seen (" + String.join(", ", families) + "); limits announced: "
                + (announced.isEmpty() ? "none" : String.join(", ", announced));
        if (above.isEmpty()) {
            ok("rate limits", seen + " (" + configured + ")");
        } else {
            lines.add(new ProbeLine(ProbeLine.Verdict.FAIL, subject, "rate limits", seen + "; configured " + String.join("; ", above)));
        }
    }

    /**
     * An answer without rate-limit headers: a self-hosted engine's (vLLM, TGI, Ollama), whose limit is
     * how many calls run at once, not a rate; how the route is configured for one, or how to.
     */
    private String noHeaders(String configured) {
        QuotaSettings q = route.quota();
        String inFlight = q.maxInFlight() == QuotaSettings.AUTO ? "auto" : Integer.toString(q.maxInFlight());
        if (q.selfHosted()) {
            return "no rate-limit headers, as a self-hosted engine's; " + configured + ", max-in-flight " + inFlight
                    + (q.maxInFlight() == QuotaSettings.AUTO ? ": the in-flight limit follows the calls' latency (the engine's knee)" : "");
        }
        return "no rate-limit headers: a self-hosted engine? Its limit is how many calls run at once, not a rate: configure it as one, "
                + key("rpm", Keys.QUOTA_RPM) + "=none, " + key("tpm", Keys.QUOTA_TPM) + "=none, " + Keys.QUOTA_MAX_IN_FLIGHT + "=auto; "
                + "meanwhile quotaflow keeps to the " + configured + (q.maxInFlight() == QuotaSettings.AUTO
                ? " and, once the calls take longer the more are in flight, finds the engine's knee from their latency"
                : " and max-in-flight " + inFlight);
    }

    /** The key setting {@code suffix} of this route: its own, or the single-route key for the default route. */
    private String key(String suffix, String single) {
        return RouteSettings.DEFAULT_NAME.equals(route.name()) ? single + " (or route.default." + suffix + ")"
                : "route." + route.name() + "." + suffix;
    }

    private void redirected(ProviderProbe.Exchange e) {
        String to = e.headers().firstValue("location").map(l -> " to " + Redactor.scrub(l.strip())).orElse("");
        fail("base URL", e.where() + " redirects (" + e.status() + ")" + to + ": set the base URL it names (quotaflow never follows "
                + "a redirect with the key)", RouteState.baseUrl("base URL redirects (" + e.status() + ")"));
    }

    private static boolean quotaSpent(String message) {
        String m = message.toLowerCase(Locale.ROOT);
        return m.contains("insufficient_quota") || m.contains("exceeded your current quota") || m.contains("spend limit")
                || m.contains("billing");
    }

    private static boolean hasRateLimitHeaders(HttpHeaders headers) {
        return headers.map().keySet().stream().anyMatch(n -> rateLimitHeader(n.toLowerCase(Locale.ROOT)));
    }

    private static boolean rateLimitHeader(String name) {
        return name.startsWith("x-ratelimit-") || name.startsWith("anthropic-ratelimit-");
    }

    /** The provider's error message (or the start of its body), one line, redacted, bounded. */
    private String message(ProviderProbe.Exchange e) {
        JsonNode error = json(e.body()).path("error");
        String text = error.isObject() ? error.path("message").asText("") + codeOf(error) : error.isTextual() ? error.asText() : e.body();
        text = text == null || text.isBlank() ? "(no message)" : text.replaceAll("\\s+", " ").strip();
        if (text.length() > 4 * MAX_MESSAGE) {
            text = text.substring(0, 4 * MAX_MESSAGE);
        }
        text = route.model().apiKey().redact(text);
        return text.length() > MAX_MESSAGE ? text.substring(0, MAX_MESSAGE) + "..." : text;
    }

    private static String codeOf(JsonNode error) {
        String code = error.path("code").asText("");
        return code.isBlank() || "null".equals(code) ? "" : " [" + code + "]";
    }

    private static JsonNode json(String body) {
        try {
            JsonNode n = body == null || body.isBlank() ? null : Json.MAPPER.readTree(body);
            return n == null ? com.fasterxml.jackson.databind.node.MissingNode.getInstance() : n;
        } catch (IOException e) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
    }

    private void ok(String check, String detail) {
        lines.add(new ProbeLine(ProbeLine.Verdict.OK, subject, check, detail));
    }

    private void skip(String check, String detail) {
        lines.add(new ProbeLine(ProbeLine.Verdict.SKIP, subject, check, detail));
    }

    /** A failed check that says what state the route is in; it ends the check. */
    private void fail(String check, String detail, RouteState cause) {
        lines.add(new ProbeLine(ProbeLine.Verdict.FAIL, subject, check, detail));
        state = cause;
        stopped = true;
    }

    /** What {@code GET /models} listed: whether it names the model (null: it gave no list), how many, the first few, the model's context window. */
    private static final class Listing {
        private Boolean listed;
        private int count;
        private final List<String> names = new ArrayList<>();
        private OptionalLong context = OptionalLong.empty();
    }
}
