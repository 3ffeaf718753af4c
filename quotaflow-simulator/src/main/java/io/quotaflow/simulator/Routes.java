package io.quotaflow.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The simulator's routes, in the paths of its dialect ({@link SimDialect#canonicalPath}; OpenAI's
 * below): {@code POST /v1/chat/completions} goes to {@link ChatCompletions};
 * {@code GET /v1/models} and the admin endpoints ({@code /admin/stats}, {@code /admin/faults},
 * {@code /admin/reset}) are answered here; anything else is a 404 or a 405. Every body is read
 * (and bounded) before the answer.
 */
final class Routes {

    private static final String INVALID_REQUEST = "invalid_request_error";
    private static final String MODELS_ADMIN = "/admin/models/";
    private static final String BATCHES = "/v1/batches/";
    private static final String FILES = "/v1/files/";
    private static final String CONTENT = "/content";
    private static final String CANCEL = "/cancel";
    private static final String UNKNOWN = "/unknown";
    private static final String DEPLOYMENT_NOT_FOUND = SimDialect.DEPLOYMENT_NOT_FOUND;

    private final ObjectMapper mapper = new ObjectMapper();
    private final ProviderSimulator simulator;
    private final ChatCompletions chat;
    private final StatsRecorder stats;
    private final SimBatches batches;

    Routes(ProviderSimulator simulator, ChatCompletions chat, StatsRecorder stats, SimBatches batches) {
        this.simulator = simulator;
        this.chat = chat;
        this.stats = stats;
        this.batches = batches;
    }

    /** The answer to a request for {@code path} (no trailing slash) with the upper-case {@code method}. */
    Reply route(HttpExchange exchange, String requestPath, String method) throws IOException {
        SimDialect dialect = simulator.config().dialect();
        Optional<String> canonical = dialect.canonicalPath(requestPath, exchange.getRequestURI().getRawQuery(),
                d -> simulator.config().servedModel(d).isPresent());
        String path = canonical.orElse(UNKNOWN);
        String authorization = dialect.credential(exchange.getRequestHeaders());
        switch (path) {
            case "/v1/chat/completions":
                if (!method.equals("POST")) {
                    return methodNotAllowed(exchange, "POST");
                }
                stats.arrived();
                return chat.handle(ReplySender.readBody(exchange), authorization);
            case "/v1/models":
                if (!method.equals("GET")) {
                    return methodNotAllowed(exchange, "GET");
                }
                ReplySender.readBody(exchange);
                return models(authorization);
            case "/v1/files":
                if (!method.equals("POST")) {
                    return methodNotAllowed(exchange, "POST");
                }
                return batches.upload(ReplySender.readBody(exchange), exchange.getRequestHeaders().getFirst("Content-Type"),
                        authorization);
            case "/v1/batches":
                if (method.equals("GET")) {
                    ReplySender.readBody(exchange);
                    return batches.list(exchange.getRequestURI().getRawQuery(), authorization);
                }
                if (!method.equals("POST")) {
                    return methodNotAllowed(exchange, "GET, POST");
                }
                return batches.create(ReplySender.readBody(exchange), authorization);
            case "/admin/batches":
                if (!method.equals("POST")) {
                    return methodNotAllowed(exchange, "POST");
                }
                return batchBehaviour(ReplySender.readBody(exchange));
            case "/admin/stats":
                if (!method.equals("GET")) {
                    return methodNotAllowed(exchange, "GET");
                }
                ReplySender.readBody(exchange);
                return ok(mapper.writeValueAsBytes(simulator.stats()));
            case "/admin/faults":
                if (method.equals("GET")) {
                    ReplySender.readBody(exchange);
                    return ok(mapper.writeValueAsBytes(FaultsJson.toJson(simulator.faults())));
                }
                if (method.equals("POST") || method.equals("PUT")) {
                    return postFaults(ReplySender.readBody(exchange));
                }
                return methodNotAllowed(exchange, "GET, POST");
            case "/admin/reset":
                if (!method.equals("POST")) {
                    return methodNotAllowed(exchange, "POST");
                }
                ReplySender.readBody(exchange);
                simulator.reset();
                return ok("{\"reset\":true}".getBytes(StandardCharsets.UTF_8));
            case DEPLOYMENT_NOT_FOUND:
                ReplySender.readBody(exchange);
                return OpenAiErrors.error(404, "The API deployment for this resource does not exist. If you created the deployment "
                        + "within the last 5 minutes, please wait a moment and try again.", null, null, "DeploymentNotFound", Map.of(), true);
            default:
                if (path.startsWith(MODELS_ADMIN) && (path.endsWith("/down") || path.endsWith("/up"))) {
                    if (!method.equals("POST")) {
                        return methodNotAllowed(exchange, "POST");
                    }
                    return upOrDown(path, ReplySender.readBody(exchange));
                }
                if (path.startsWith(BATCHES) && path.length() > BATCHES.length()) {
                    return batch(exchange, path.substring(BATCHES.length()), method, authorization);
                }
                if (path.startsWith(FILES) && path.endsWith(CONTENT) && path.length() > FILES.length() + CONTENT.length()
                        && method.equals("GET")) {
                    ReplySender.readBody(exchange);
                    return batches.content(path.substring(FILES.length(), path.length() - CONTENT.length()), authorization);
                }
                ReplySender.readBody(exchange);
                return OpenAiErrors.error(404, "Unknown request URL: " + method + " " + requestPath
                        + ". Please check the URL for typos.", INVALID_REQUEST, null, "unknown_url", Map.of(), false);
        }
    }

    /** {@code GET /v1/batches/{id}} and {@code POST /v1/batches/{id}/cancel}; {@code rest}: what follows {@code /v1/batches/}. */
    private Reply batch(HttpExchange exchange, String rest, String method, String authorization) throws IOException {
        ReplySender.readBody(exchange);
        if (rest.endsWith(CANCEL) && rest.length() > CANCEL.length() && method.equals("POST")) {
            return batches.cancel(rest.substring(0, rest.length() - CANCEL.length()), authorization);
        }
        if (method.equals("GET")) {
            return batches.get(rest, authorization);
        }
        return OpenAiErrors.error(404, "Unknown request URL: " + method + " /v1/batches/" + rest + ". Please check the URL for typos.",
                INVALID_REQUEST, null, "unknown_url", Map.of(), false);
    }

    private static Reply ok(byte[] body) {
        return new Reply.Now(200, Map.of(), body, false);
    }

    private static Reply methodNotAllowed(HttpExchange exchange, String allowed) throws IOException {
        ReplySender.readBody(exchange);
        return OpenAiErrors.error(405, "Method " + exchange.getRequestMethod() + " not allowed; use " + allowed + ".",
                INVALID_REQUEST, null, "method_not_allowed", Map.of("allow", allowed), false);
    }

    /** {@code GET /v1/models}: the models served that the key may use, behind the same outage, failAuth and key checks. */
    private Reply models(String authorization) throws JsonProcessingException {
        Faults current = simulator.faults();
        if (current.inOutage(simulator.uptime())) {
            stats.fault("outage");
            return OpenAiErrors.serviceUnavailable(false);
        }
        if (current.failAuth()) {
            stats.fault("auth");
            return OpenAiErrors.unauthorized(false);
        }
        ObjectNode list = mapper.createObjectNode().put("object", "list");
        ArrayNode data = list.putArray("data");
        for (ModelSpec model : simulator.config().models()) {
            // like OpenAI, the models this key may use
            if (chat.model(model.name()).authenticate(authorization).isPresent()) {
                data.addObject().put("id", model.name()).put("object", "model").put("created", 0).put("owned_by", "quotaflow-sim");
            }
        }
        if (data.isEmpty()) {
            return OpenAiErrors.unauthorized(true);
        }
        return ok(mapper.writeValueAsBytes(list));
    }

    /** {@code POST /admin/models/NAME/down} (body {@code {"status":S}} optional, 503 by default) or {@code .../up}. */
    private Reply upOrDown(String path, byte[] body) throws IOException {
        boolean down = path.endsWith("/down");
        String name = path.substring(MODELS_ADMIN.length(), path.length() - (down ? "/down".length() : "/up".length()));
        int status = down ? downStatus(body) : 0;
        if (status < 0) {
            return OpenAiErrors.error(400, "The body must be empty or {\"status\":S} with an HTTP status.", INVALID_REQUEST,
                    "status", null, Map.of(), false);
        }
        try {
            simulator.setDown(name, status);
        } catch (IllegalArgumentException e) {
            return OpenAiErrors.error(simulator.config().servedModel(name).isPresent() ? 400 : 404, e.getMessage(),
                    INVALID_REQUEST, null, null, Map.of(), false);
        }
        ObjectNode answer = mapper.createObjectNode().put("model", name).put("down", status != 0);
        if (status != 0) {
            answer.put("status", status);
        }
        return ok(mapper.writeValueAsBytes(answer));
    }

    /** The status a down body asks for: 503 when it names none, -1 when it is not {@code {"status":S}}. */
    private int downStatus(byte[] body) {
        if (body.length == 0) {
            return ProviderSimulator.DEFAULT_DOWN_STATUS;
        }
        JsonNode json;
        try {
            json = mapper.readTree(body);
        } catch (IOException e) {
            return -1;
        }
        if (json == null || !json.isObject()) {
            return -1;
        }
        JsonNode given = json.get("status");
        if (given == null) {
            return ProviderSimulator.DEFAULT_DOWN_STATUS;
        }
        return given.canConvertToInt() && given.isIntegralNumber() ? given.intValue() : -1;
    }

    /**
     * {@code POST /admin/batches} {@code {"delayMs":D,"expireAfter":N,"expireEvery":E,"failEvery":F,"malformedEvery":M,
     * "vanishEvery":V,"enqueuedLimit":L,"countFactor":C}}: how the jobs created from now on behave (fields left out: their
     * defaults, {@link BatchBehaviour#DEFAULT}).
     */
    private Reply batchBehaviour(byte[] body) throws IOException {
        JsonNode json;
        try {
            json = body.length == 0 ? mapper.createObjectNode() : mapper.readTree(body);
        } catch (JsonProcessingException e) {
            json = null;
        }
        if (json == null || !json.isObject()) {
            return OpenAiErrors.error(400, "The body must be {\"delayMs\":D,\"expireAfter\":N,...}.", INVALID_REQUEST, null, null,
                    Map.of(), false);
        }
        BatchBehaviour d = BatchBehaviour.DEFAULT;
        BatchBehaviour b;
        try {
            b = new BatchBehaviour(json.path("delayMs").asLong(d.delayMs()), json.path("expireAfter").asInt(d.expireAfter()),
                    json.path("expireEvery").asInt(d.expireEvery()), json.path("failEvery").asInt(d.failEvery()),
                    json.path("malformedEvery").asInt(d.malformedEvery()), json.path("vanishEvery").asInt(d.vanishEvery()),
                    json.path("enqueuedLimit").asLong(d.enqueuedLimit()), json.path("countFactor").asDouble(d.countFactor()));
        } catch (IllegalArgumentException e) {
            return OpenAiErrors.error(400, e.getMessage(), INVALID_REQUEST, null, null, Map.of(), false);
        }
        batches.set(b);
        return ok(mapper.writeValueAsBytes(mapper.valueToTree(b)));
    }

    private Reply postFaults(byte[] body) throws IOException {
        Faults parsed;
        try {
            parsed = FaultsJson.fromJson(mapper.readTree(body));
        } catch (JsonProcessingException e) {
            return OpenAiErrors.error(400, "The body must be a JSON object of faults: " + e.getOriginalMessage(),
                    INVALID_REQUEST, null, null, Map.of(), false);
        } catch (IllegalArgumentException e) {
            return OpenAiErrors.error(400, e.getMessage(), INVALID_REQUEST, null, null, Map.of(), false);
        }
        simulator.setFaults(parsed);
        return ok(mapper.writeValueAsBytes(FaultsJson.toJson(parsed)));
    }
}
