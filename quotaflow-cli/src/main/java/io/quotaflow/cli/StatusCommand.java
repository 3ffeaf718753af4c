package io.quotaflow.cli;

import io.quotaflow.settings.Keys;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.config.ConfigValues;
import io.quotaflow.config.HttpSettingsReader;
import io.quotaflow.settings.HttpSettings;
import io.quotaflow.publish.FinishedTicketLookup;
import io.quotaflow.status.TicketAnswer;
import io.quotaflow.status.TicketPaths;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code quotaflow status ID}: where one ticket stands and when it will be done. */
@Command(name = "status", sortOptions = false,
        headerHeading = "%n", synopsisHeading = "Usage: ",
        header = "Print one ticket's state, position and ETA.",
        descriptionHeading = "%nDescription:%n",
        description = {
            "Asks a running instance GET /tickets/{id} and prints its JSON answer: id, state (pending, delayed, "
                    + "in-flight, classified, dead-lettered, cancelled or unknown), route, priority, tenant, position "
                    + "and estimatedStartAt / estimatedDoneAt. Any instance answers: one that does not own the "
                    + "ticket's route asks the others.",
            "",
            "A ticket no instance knows (none runs, or its status has expired: status.retention) is looked up in "
                    + "tickets.classified, then tickets.dlq, then tickets.handoff: the partition its key is on is read, "
                    + "and a status in the shape of an instance's answer is printed, with source topic-partition@offset "
                    + "and the result (classified), the kind (dead-lettered) or the reason (handed-off).",
            "",
            "With --url the instance is named; otherwise the members of the application's group "
                    + "(application.id; a consumer group, or a streams group under kafka.group.protocol=streams) are found "
                    + "through --bootstrap-servers and asked on --http-port (http.port, default 8080) in turn (over "
                    + "HTTPS when http.tls.* is set).",
            "",
            "With http.auth-token-file set (in --config FILE or QUOTAFLOW_HTTP_AUTH_TOKEN_FILE) its token is sent "
                    + "as Authorization: Bearer; with http.tls.* the instances' certificate is trusted."
        },
        optionListHeading = "%nOptions:%n",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:the ticket is known (to an instance, or found in the results or dead-letter topic)",
            "1:neither an instance nor the topics know it (state unknown), or none answered and the topics were not read",
            "2:usage error"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  quotaflow status --url http://localhost:8080 T-1001",
            "  quotaflow status --bootstrap-servers localhost:9092 T-1001",
            "  quotaflow status --bootstrap-servers localhost:9092 --http-port 9464 T-1001"
        })
public final class StatusCommand implements Callable<Integer> {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    @Mixin
    KafkaConnectionOptions kafka = new KafkaConnectionOptions();

    @Option(names = "--url", paramLabel = "URL", description = "An instance's HTTP root, e.g. http://localhost:8080.")
    URI url;

    @Option(names = "--http-port", paramLabel = "PORT", description = "The port the instances found through "
            + "--bootstrap-servers serve HTTP on (http.port; default 8080). Not with --url, which names the port itself.")
    Integer httpPort;

    @Option(names = "--application-id", description = "Kafka Streams application id of the instances "
            + "(application.id; default <topics.prefix>quotaflow). "
            + "Not with --url, which names the instance itself.")
    String applicationId;

    @Parameters(index = "0", paramLabel = "TICKET_ID", description = "The ticket's id (or its key, tenant:id).")
    String id;

    /** The variable of {@code --tenant}'s default, read from the command's environment (as the settings are). */
    static final String TENANT_VARIABLE = "QUOTAFLOW_STATUS_TENANT";

    @Option(names = "--tenant", paramLabel = "NAME",
            description = "The ticket's tenant (default: the default tenant, or the one TICKET_ID names as tenant:id). "
                    + "Env: " + TENANT_VARIABLE + ".")
    String tenant;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        refuseConflicts();
        Optional<List<URI>> found = roots(err);
        if (found.isEmpty()) {
            return ExitCodes.FAILURE;
        }
        List<URI> roots = found.get();
        Answer answer;
        try {
            answer = ask(roots, err);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ExitCodes.FAILURE;
        }
        if (answer.known()) {
            out.println(answer.body());
            out.flush();
            return ExitCodes.OK;
        }
        Optional<String> unknown = Optional.ofNullable(answer.body());
        if (unknown.isEmpty()) {
            err.println("status: no instance answered" + (roots.isEmpty() ? " (the application has no members)"
                    : url != null ? "" : " on port " + port() + " (http.port: set it, or --url, when the instances use another)"));
        }
        if (finished(out, err)) {
            return ExitCodes.OK;
        }
        unknown.ifPresent(body -> {
            out.println(body);
            out.flush();
        });
        return ExitCodes.FAILURE;
    }

    /** --url names one instance: the options that find the instances through the cluster are a usage error beside it. */
    private void refuseConflicts() {
        if (url != null && httpPort != null) {
            throw new ParameterException(spec.commandLine(), "give --url (one instance) or --http-port (the port of the "
                    + "instances found through --bootstrap-servers), not both");
        }
        if (url != null && applicationId != null) {
            throw new ParameterException(spec.commandLine(), "give --url (one instance) or --application-id (the application "
                    + "whose instances are found through --bootstrap-servers), not both");
        }
    }

    /** The instances to ask: --url, or the members found through the cluster; empty (and said why) when none could be listed. */
    private Optional<List<URI>> roots(PrintWriter err) {
        if (url != null) {
            return Optional.of(List.of(url));
        }
        try {
            return Optional.of(discover());
        } catch (RuntimeException | InterruptedException | java.util.concurrent.ExecutionException
                 | java.util.concurrent.TimeoutException e) {
            err.println("status: could not list the instances of the application: " + PublishCommand.rootMessage(e));
            return Optional.empty();
        }
    }

    /**
     * Looks for the ticket in the results topic, then in the dead-letter topic, and prints what it
     * finds as a status ({@code "state": "classified"} with the result, or {@code "dead-lettered"} with
     * the failure's kind). False when neither holds it, or no cluster is configured.
     */
    private boolean finished(PrintWriter out, PrintWriter err) {
        String bootstrap;
        try {
            bootstrap = kafka.bootstrapServers();
        } catch (RuntimeException e) {
            return false; // --url without a cluster: nothing else to ask
        }
        String tenant = tenant();
        io.quotaflow.records.TicketKey key = tenant == null || tenant.isBlank() ? io.quotaflow.records.TicketKey.parse(id)
                : new io.quotaflow.records.TicketKey(tenant, id);
        try (FinishedTicketLookup lookup = new FinishedTicketLookup(bootstrap, kafka.clientProperties())) {
            for (String topic : List.of(kafka.topics().classified(), kafka.topics().dlq(), kafka.topics().handoff())) {
                FinishedTicketLookup.Outcome outcome = lookup.find(topic, key.key(), TIMEOUT);
                if (outcome.found().isPresent()) {
                    out.println(finishedStatus(key, outcome.found().get()));
                    out.flush();
                    return true;
                }
                if (outcome.missing() == FinishedTicketLookup.Missing.NOT_READ) {
                    err.println("status: " + topic + " could not be read to its end within " + TIMEOUT.toSeconds() + " s");
                }
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            err.println("status: could not read the results: " + PublishCommand.rootMessage(e));
        }
        return false;
    }

    /**
     * A status of a finished ticket, from its record in an output topic: the shape of an instance's
     * {@code GET /tickets/{id}} answer ({@link TicketAnswer}: {@code estimatedDoneAt} is when it ended, the
     * queue's fields null), then where it was found ({@code source}) and what the record says: the
     * classification ({@code result}), the failure's {@code kind}, or the hand-off's {@code reason} and
     * {@code deadline}.
     */
    static String finishedStatus(io.quotaflow.records.TicketKey key, FinishedTicketLookup.Found found) {
        boolean deadLettered = found.headers().containsKey(io.quotaflow.records.DeadLetterHeaders.ERROR_KIND);
        boolean handedOff = found.headers().containsKey(io.quotaflow.records.HandoffHeaders.REASON);
        com.fasterxml.jackson.databind.JsonNode result = null;
        if (!handedOff && !deadLettered) {
            try {
                result = io.quotaflow.records.Json.MAPPER.readTree(found.value());
            } catch (IOException e) {
                result = io.quotaflow.records.Json.MAPPER.getNodeFactory().textNode(new String(found.value(), StandardCharsets.UTF_8));
            }
        }
        String route = result != null && result.hasNonNull("route") ? result.get("route").asText() : null;
        String state = handedOff ? "handed-off" : deadLettered ? "dead-lettered" : "classified";
        TicketAnswer answer = new TicketAnswer(key.id(), state, route, null, key.tenant(), null, null, null,
                java.time.Instant.ofEpochMilli(found.timestamp()).toString());
        com.fasterxml.jackson.databind.node.ObjectNode status = io.quotaflow.records.Json.MAPPER.valueToTree(answer);
        status.put("source", found.position());
        if (handedOff) {
            status.put("reason", found.headers().get(io.quotaflow.records.HandoffHeaders.REASON));
            status.put("deadline", found.headers().get(io.quotaflow.records.HandoffHeaders.DEADLINE));
        } else if (deadLettered) {
            status.put("kind", found.headers().get(io.quotaflow.records.DeadLetterHeaders.ERROR_KIND));
        } else {
            status.set("result", result);
        }
        return status.toString();
    }

    /** The port the instances are asked on: --http-port, else http.port of the settings, else 8080. */
    private int port() {
        return port(kafka.settings(flags()));
    }

    private int port(ConfigValues values) {
        int port = values.integer(Keys.HTTP_PORT);
        return port > 0 ? port : 8080;
    }

    /** This command's flags as settings: --application-id and --http-port. */
    private Map<String, String> flags() {
        Map<String, String> flags = new java.util.LinkedHashMap<>();
        if (applicationId != null) {
            flags.put(Keys.APPLICATION_ID, applicationId);
        }
        if (httpPort != null) {
            flags.put(Keys.HTTP_PORT, httpPort.toString());
        }
        return flags;
    }

    /** An instance's answer: a status it knows, its {@code unknown} status, or none (body null). */
    private record Answer(boolean known, String body) {
    }

    /** Asks the instances at {@code roots} in turn, until one answers. */
    private Answer ask(List<URI> roots, PrintWriter err) throws InterruptedException {
        HttpSettings settings = httpSettings();
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(TIMEOUT);
        settings.identity().ifPresent(tls -> client.sslContext(tls.peerContext()));
        HttpClient http = client.build();
        String path = ticketPath();
        for (URI root : roots) {
            URI target = URI.create(root.toString().endsWith("/") ? root + path : root + "/" + path);
            try {
                HttpRequest.Builder request = HttpRequest.newBuilder(target).timeout(TIMEOUT).GET();
                settings.token().ifPresent(t -> request.header("Authorization", "Bearer " + t.reveal()));
                HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() != 200) {
                    err.println("status: " + target + " answered HTTP " + response.statusCode());
                    continue;
                }
                String state = io.quotaflow.records.Json.MAPPER.readTree(response.body()).path("state").asText("unknown");
                // unknown: this instance asked every other, none holds it; a finished one is in the output topics
                return new Answer(!"unknown".equals(state), response.body().strip());
            } catch (IOException | IllegalArgumentException e) {
                err.println("status: " + target + ": " + PublishCommand.rootMessage(e));
            }
        }
        return new Answer(false, null);
    }

    /** The token and TLS settings of the instances ({@code http.auth-token-file}, {@code http.tls.*}), to ask them with. */
    private HttpSettings httpSettings() {
        try {
            return HttpSettingsReader.read(kafka.settings(flags()));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    /** {@code http(s)://<member host>:<http.port>} of each member of the application's consumer group. */
    private List<URI> discover() throws InterruptedException, java.util.concurrent.ExecutionException,
            java.util.concurrent.TimeoutException {
        ConfigValues values = kafka.settings(flags());
        String group = values.applicationId();
        int port = port(values);
        String scheme = values.get(Keys.HTTP_TLS_CERT_FILE).isPresent() || values.get(Keys.HTTP_TLS_KEYSTORE_FILE).isPresent() ? "https" : "http";
        Set<String> hosts = new LinkedHashSet<>();
        try (Admin admin = KafkaClients.admin(kafka.bootstrapServers(), kafka.clientProperties())) {
            hosts.addAll(streamsGroupHosts(admin, group));
            if (hosts.isEmpty()) {
                ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).all()
                        .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS).get(group);
                for (MemberDescription m : d.members()) {
                    hosts.add(hostOf(m.host()));
                }
            }
        }
        List<URI> roots = new ArrayList<>();
        for (String host : hosts) {
            roots.add(URI.create(scheme + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port));
        }
        return roots;
    }

    /**
     * The hosts of the members of {@code group} as a streams group (kafka.group.protocol=streams, KIP-1071), which
     * {@code describeConsumerGroups} does not list; none when it is not one, or the cluster has no streams groups
     * (as {@code ApplicationReset} describes a group).
     */
    private static Set<String> streamsGroupHosts(Admin admin, String group) throws InterruptedException,
            java.util.concurrent.ExecutionException, java.util.concurrent.TimeoutException {
        Set<String> hosts = new LinkedHashSet<>();
        try {
            org.apache.kafka.clients.admin.StreamsGroupDescription d = admin.describeStreamsGroups(List.of(group)).describedGroups()
                    .get(group).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            d.members().forEach(m -> hosts.add(hostOf(m.clientHost())));
        } catch (java.util.concurrent.ExecutionException e) {
            if (!(e.getCause() instanceof org.apache.kafka.common.errors.GroupIdNotFoundException
                    || e.getCause() instanceof org.apache.kafka.common.errors.UnsupportedVersionException)) {
                throw e;
            }
        }
        return hosts;
    }

    /** A member's host as the coordinator reports it ({@code /10.0.0.7}), without the slash. */
    private static String hostOf(String host) {
        return host.startsWith("/") ? host.substring(1) : host;
    }

    /** {@code --tenant}, else {@link #TENANT_VARIABLE} of the command's environment, else null. */
    private String tenant() {
        return tenant != null ? tenant : kafka.environment.get(TENANT_VARIABLE);
    }

    /** {@code tickets/{id}}, percent-encoded, with {@code ?tenant=} when one is given. */
    private String ticketPath() {
        String path = TicketPaths.of(id).substring(1);
        String tenant = tenant();
        return tenant == null || tenant.isBlank() ? path : path + "?tenant=" + URLEncoder.encode(tenant, StandardCharsets.UTF_8);
    }
}
