package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.quotaflow.config.ConfigKeys;
import io.quotaflow.config.ConfigLoader;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.testkit.RepositoryFiles;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * deploy/kubernetes: every manifest follows the Kubernetes 1.30 schemas (strict: no unknown field),
 * and the StatefulSet keeps what running quotaflow there needs (non-root, read-only root, both
 * probes, the state on a volume claim, the key from a Secret, resources and a heap, static
 * membership, forwarding through the headless Service, a grace period longer than the stop), so an
 * edit cannot drop one silently. The overlay is also rendered with kubectl when it is installed.
 */
class KubernetesManifestsTest {

    private static final Path DEPLOY = RepositoryFiles.path("deploy/kubernetes");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static KubernetesSchemas schemas;

    @BeforeAll
    static void loadSchemas() {
        schemas = KubernetesSchemas.load();
    }

    @Test
    void shouldFollowTheKubernetesSchemasInEveryManifestFile() throws IOException {
        List<Path> files = manifestFiles();
        assertThat(files).as("manifests under " + DEPLOY).hasSizeGreaterThanOrEqualTo(8);
        List<String> problems = new ArrayList<>();
        int objects = 0;
        for (Path file : files) {
            for (JsonNode object : read(Files.readString(file, StandardCharsets.UTF_8))) {
                objects++;
                schemas.problems(object).forEach(p -> problems.add(DEPLOY.relativize(file) + ": " + p));
            }
        }
        assertThat(problems).as("schema problems").isEmpty();
        System.out.printf("KubernetesManifestsTest: %d objects in %d files follow the Kubernetes 1.30 schemas%n", objects, files.size());
    }

    @Test
    void shouldRejectAMisspeltField() throws IOException {
        JsonNode statefulSet = find(base(), "StatefulSet");
        String misspelt = YAML.writeValueAsString(statefulSet).replace("readOnlyRootFilesystem", "readOnlyRootFileSystem");
        assertThat(schemas.problems(read(misspelt).get(0))).as("the validation is strict").isNotEmpty();
    }

    @Test
    void shouldListEveryFileInItsKustomization() throws IOException {
        for (String dir : List.of("base", "components/servicemonitor", "overlays/example", "overlays/kube-prometheus-stack")) {
            JsonNode kustomization = read(Files.readString(DEPLOY.resolve(dir).resolve("kustomization.yaml"))).get(0);
            List<String> listed = new ArrayList<>();
            kustomization.path("resources").forEach(r -> listed.add(r.asText()));
            kustomization.path("patches").forEach(p -> listed.add(p.path("path").asText()));
            try (Stream<Path> files = Files.list(DEPLOY.resolve(dir))) {
                List<String> yaml = files.map(f -> f.getFileName().toString())
                        .filter(n -> n.endsWith(".yaml") && !n.equals("kustomization.yaml")).toList();
                assertThat(listed).as(dir + "/kustomization.yaml lists every manifest beside it").containsAll(yaml);
            }
            for (String entry : listed) {
                assertThat(DEPLOY.resolve(dir).resolve(entry)).as(dir + "/kustomization.yaml: " + entry).exists();
            }
        }
    }

    @Test
    void shouldRunTheStatefulSetAsNonRootOnAReadOnlyRoot() throws IOException {
        for (List<JsonNode> objects : deployments()) {
            JsonNode pod = find(objects, "StatefulSet").path("spec").path("template").path("spec");
            JsonNode container = quotaflow(pod);
            assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
            assertThat(pod.path("securityContext").path("runAsUser").asInt()).as("the image's user").isEqualTo(10001);
            assertThat(pod.path("securityContext").path("seccompProfile").path("type").asText()).isEqualTo("RuntimeDefault");
            JsonNode security = container.path("securityContext");
            assertThat(security.path("allowPrivilegeEscalation").isBoolean() && !security.path("allowPrivilegeEscalation").asBoolean()).isTrue();
            assertThat(security.path("readOnlyRootFilesystem").asBoolean()).isTrue();
            assertThat(security.path("capabilities").path("drop").toString()).isEqualTo("[\"ALL\"]");
            assertThat(mountOf(pod, container, "/tmp").path("emptyDir").isObject()).as("a writable /tmp for native libraries").isTrue();
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).as("quotaflow never calls the API server").isFalse();
        }
    }

    @Test
    void shouldProbeLivenessAndReadinessOnTheStatusPort() throws IOException {
        for (List<JsonNode> objects : deployments()) {
            JsonNode container = quotaflow(find(objects, "StatefulSet").path("spec").path("template").path("spec"));
            int port = Integer.parseInt(ConfigKeys.defaults().get("http.port"));
            assertThat(container.path("ports").get(0).path("containerPort").asInt()).as("http.port's default").isEqualTo(port);
            String portName = container.path("ports").get(0).path("name").asText();
            assertThat(container.path("livenessProbe").path("httpGet").path("path").asText()).isEqualTo("/health/live");
            assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/health/ready");
            assertThat(container.path("startupProbe").path("httpGet").path("path").asText()).isEqualTo("/health/live");
            for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
                assertThat(container.path(probe).path("httpGet").path("port").asText()).as(probe).isEqualTo(portName);
            }
            JsonNode annotations = find(objects, "StatefulSet").path("spec").path("template").path("metadata").path("annotations");
            assertThat(annotations.path("prometheus.io/scrape").asText()).isEqualTo("true");
            assertThat(annotations.path("prometheus.io/port").asText()).isEqualTo(Integer.toString(port));
            assertThat(annotations.path("prometheus.io/path").asText()).isEqualTo("/metrics");
        }
    }

    @Test
    void shouldKeepTheStateOnAVolumeClaimAndSetResourcesAndAHeap() throws IOException {
        for (List<JsonNode> objects : deployments()) {
            JsonNode spec = find(objects, "StatefulSet").path("spec");
            JsonNode pod = spec.path("template").path("spec");
            JsonNode container = quotaflow(pod);
            String stateDir = env(container).get("QUOTAFLOW_STATE_DIR");
            assertThat(stateDir).isNotBlank();
            String claim = mountHolding(container, stateDir);
            assertThat(spec.path("volumeClaimTemplates").findValuesAsText("name")).as("state.dir on a volume claim").contains(claim);
            assertThat(pod.path("volumes").findValuesAsText("name")).as("not a pod volume").doesNotContain(claim);
            for (String kind : List.of("requests", "limits")) {
                for (String resource : List.of("cpu", "memory")) {
                    assertThat(container.path("resources").path(kind).path(resource).asText()).as(kind + "." + resource).isNotBlank();
                }
            }
            assertThat(env(container).get("JAVA_TOOL_OPTIONS")).contains("-XX:MaxRAMPercentage=");
            assertThat(pod.path("terminationGracePeriodSeconds").asLong())
                    .as("longer than run's stop (%s)", RunCommand.STOP_WAIT).isGreaterThan(RunCommand.STOP_WAIT.toSeconds());
        }
    }

    @Test
    void shouldTakeTheKeyAndTokenFromASecretNeverFromTheConfigMap() throws IOException {
        for (List<JsonNode> objects : deployments()) {
            JsonNode pod = find(objects, "StatefulSet").path("spec").path("template").path("spec");
            JsonNode container = quotaflow(pod);
            Map<String, String> env = env(container);
            assertThat(env).doesNotContainKey(ConfigLoader.API_KEY_ENV);
            for (String variable : List.of("QUOTAFLOW_LLM_API_KEY_FILE", "QUOTAFLOW_HTTP_AUTH_TOKEN_FILE", "QUOTAFLOW_HTTP_TOKENS_FILE")) {
                String file = env.get(variable);
                assertThat(file).as(variable).isNotBlank();
                String dir = file.substring(0, file.lastIndexOf('/'));
                JsonNode volume = mountOf(pod, container, dir);
                assertThat(volume.path("secret").path("secretName").asText()).as(variable + " is in a Secret volume").isNotBlank();
                assertThat(volume.path("secret").path("items").findValuesAsText("path")).contains(file.substring(dir.length() + 1));
            }
            for (JsonNode e : container.path("env")) {
                String name = e.path("name").asText();
                boolean secretNamed = name.matches("(?i).*(KEY|TOKEN|PASSWORD|SECRET).*") && !name.endsWith("_FILE");
                assertThat(secretNamed && !e.path("valueFrom").has("secretKeyRef")).as("env " + name + " holds a secret in the manifest").isFalse();
            }
            assertThat(container.path("envFrom").isMissingNode()).as("no bulk environment: each variable is named").isTrue();
            for (String key : configProperties(objects).stringPropertyNames()) {
                assertThat(ConfigLoader.isApiKeyName(key)).as("ConfigMap key " + key).isFalse();
            }
        }
    }

    @Test
    void shouldStartAsThePodWithStaticMembershipAndItsDnsName(@TempDir Path tmp) throws IOException {
        for (List<JsonNode> objects : deployments()) {
            JsonNode statefulSet = find(objects, "StatefulSet");
            JsonNode pod = statefulSet.path("spec").path("template").path("spec");
            JsonNode container = quotaflow(pod);
            assertThat(pod.path("enableServiceLinks").isBoolean() && !pod.path("enableServiceLinks").asBoolean())
                    .as("no QUOTAFLOW_SERVICE_HOST & co., which quotaflow refuses as unknown variables").isTrue();
            String serviceName = statefulSet.path("spec").path("serviceName").asText();
            JsonNode headless = objects.stream().filter(o -> o.path("kind").asText().equals("Service")
                    && o.path("metadata").path("name").asText().equals(serviceName)).findFirst().orElseThrow();
            assertThat(headless.path("spec").path("clusterIP").asText()).isEqualTo("None");
            assertThat(headless.path("spec").path("publishNotReadyAddresses").asBoolean()).isTrue();

            QuotaflowConfig config = configOfPod(objects, container, tmp, "quotaflow-1", "team-a");
            assertThat(config.instanceId()).as("group.instance.id is the pod's name").isEqualTo("quotaflow-1");
            assertThat(config.http().advertised()).contains("quotaflow-1." + serviceName + ".team-a.svc");
            assertThat(config.stateDir()).hasToString(env(container).get("QUOTAFLOW_STATE_DIR"));
            assertThat(config.http().token()).as("the HTTP token from the Secret").isPresent();
            assertThat(config.httpBind()).as("probes reach every interface").isEqualTo(QuotaflowConfig.DEFAULT_HTTP_BIND);
        }
    }

    @Test
    void shouldBudgetOneDisruptionAndScrapeEachPodOnce() throws IOException {
        List<JsonNode> objects = new ArrayList<>(base());
        objects.addAll(read(Files.readString(DEPLOY.resolve("components/servicemonitor/servicemonitor.yaml"))));
        JsonNode podLabels = find(objects, "StatefulSet").path("spec").path("template").path("metadata").path("labels");
        JsonNode budget = find(objects, "PodDisruptionBudget").path("spec");
        assertThat(budget.path("maxUnavailable").asInt()).isEqualTo(1);
        assertThat(selects(budget.path("selector").path("matchLabels"), podLabels)).as("the PDB covers the pods").isTrue();
        JsonNode monitor = find(objects, "ServiceMonitor").path("spec");
        List<JsonNode> scraped = objects.stream().filter(o -> o.path("kind").asText().equals("Service"))
                .filter(s -> selects(monitor.path("selector").path("matchLabels"), s.path("metadata").path("labels"))).toList();
        assertThat(scraped).as("the ServiceMonitor selects one Service").hasSize(1);
        assertThat(scraped.get(0).path("spec").path("clusterIP").asText()).isNotEqualTo("None");
        assertThat(scraped.get(0).path("spec").path("ports").findValuesAsText("name")).contains(monitor.path("endpoints").get(0).path("port").asText());
        assertThat(monitor.path("endpoints").get(0).path("path").asText()).isEqualTo("/metrics");
    }

    @Test
    void shouldAdmitOnlyPrometheusClientsAndPeersToTheHttpPortAndLetOutOnlyDnsKafkaTheProviderAndPeers() throws IOException {
        for (List<JsonNode> objects : deployments()) {
            JsonNode policy = find(objects, "NetworkPolicy").path("spec");
            JsonNode pods = find(objects, "StatefulSet").path("spec").path("template").path("metadata").path("labels");
            policy.path("podSelector").path("matchLabels").fields()
                    .forEachRemaining(e -> assertThat(pods.path(e.getKey()).asText()).as("selects the quotaflow pods").isEqualTo(e.getValue().asText()));
            assertThat(List.of(policy.path("policyTypes").get(0).asText(), policy.path("policyTypes").get(1).asText()))
                    .containsExactlyInAnyOrder("Ingress", "Egress");
            List<String> fromLabels = new ArrayList<>();
            for (JsonNode rule : policy.path("ingress")) {
                assertThat(rule.path("ports").findValuesAsText("port")).as("ingress to the HTTP port only").containsOnly("8080");
                for (JsonNode peer : rule.path("from")) {
                    assertThat(peer.has("namespaceSelector") || peer.has("ipBlock")).as("ingress from this namespace's pods only: " + peer)
                            .isFalse();
                    peer.path("podSelector").path("matchLabels").fields().forEachRemaining(e -> fromLabels.add(e.getKey() + "=" + e.getValue().asText()));
                }
            }
            assertThat(fromLabels).containsExactlyInAnyOrder("app.kubernetes.io/name=prometheus", "quotaflow.io/client=true",
                    "app.kubernetes.io/name=quotaflow");
            assertThat(policy.path("egress").findValuesAsText("port")).containsExactlyInAnyOrder("53", "53", "9092", "443", "8080");
        }
    }

    @Test
    void shouldServeHttpsFromATlsSecretInTheExampleOverlay() throws IOException {
        JsonNode patch = read(Files.readString(DEPLOY.resolve("overlays/example/statefulset.yaml"))).get(0);
        JsonNode pod = patch.path("spec").path("template").path("spec");
        JsonNode container = quotaflow(pod);
        Map<String, String> env = env(container);
        for (String variable : List.of("QUOTAFLOW_HTTP_TLS_CERT_FILE", "QUOTAFLOW_HTTP_TLS_KEY_FILE", "QUOTAFLOW_HTTP_TLS_CA_FILE")) {
            String file = env.get(variable);
            assertThat(file).as(variable).isNotBlank();
            JsonNode volume = mountOf(pod, container, file.substring(0, file.lastIndexOf('/')));
            assertThat(volume.path("secret").path("secretName").asText()).as(variable + " is in a Secret volume").isEqualTo("quotaflow-tls");
        }
        for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
            assertThat(container.path(probe).path("httpGet").path("scheme").asText()).as(probe).isEqualTo("HTTPS");
        }
        assertThat(patch.path("spec").path("template").path("metadata").path("annotations").path("prometheus.io/scheme").asText())
                .isEqualTo("https");
    }

    @Test
    void shouldRenderTheOverlayWithKubectl(@TempDir Path tmp) throws IOException, InterruptedException {
        if (!kubectlRenders(tmp)) {
            System.out.println("KubernetesManifestsTest: kubectl 1.21 or later is not on the PATH: the kustomizations are not rendered "
                    + "(SKIPPED; every file was still checked on its own)");
        }
        assumeTrue(kubectlRenders(tmp), "kubectl 1.21 or later is not on the PATH; kubectl kustomize check skipped (the files were checked one by one)");
        Path withMonitor = Files.createDirectories(tmp.resolve("with-monitor"));
        Files.writeString(withMonitor.resolve("kustomization.yaml"), "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
                + "resources:\n  - " + relative(withMonitor, "overlays/example") + "\n"
                + "components:\n  - " + relative(withMonitor, "components/servicemonitor") + "\n");
        Map<String, Path> renders = new LinkedHashMap<>();
        renders.put("base", DEPLOY.resolve("base"));
        renders.put("overlays/example", DEPLOY.resolve("overlays/example"));
        renders.put("overlays/example with components/servicemonitor", withMonitor);
        renders.put("overlays/kube-prometheus-stack", DEPLOY.resolve("overlays/kube-prometheus-stack"));
        for (Map.Entry<String, Path> render : renders.entrySet()) {
            String rendered = kubectl(tmp, "kustomize", render.getValue().toString());
            assertThat(rendered).as("kubectl kustomize " + render.getKey()).isNotNull();
            List<JsonNode> objects = read(rendered);
            List<String> problems = new ArrayList<>();
            objects.forEach(o -> schemas.problems(o).forEach(p -> problems.add(o.path("kind").asText() + ": " + p)));
            assertThat(problems).as("rendered " + render.getKey()).isEmpty();
            System.out.printf("KubernetesManifestsTest: kubectl kustomize %s: %d objects follow the schemas%n", render.getKey(), objects.size());
        }
    }

    @Test
    void shouldLabelTheServiceMonitorForKubePrometheusStackInItsOverlay(@TempDir Path tmp) throws IOException, InterruptedException {
        assumeTrue(kubectlRenders(tmp), "kubectl 1.21 or later is not on the PATH; kubectl kustomize check skipped");
        List<JsonNode> objects = read(kubectl(tmp, "kustomize", DEPLOY.resolve("overlays/kube-prometheus-stack").toString()));

        JsonNode monitor = find(objects, "ServiceMonitor");
        assertThat(monitor.path("metadata").path("labels").path("release").asText())
                .as("kube-prometheus-stack selects ServiceMonitors by its release's name").isEqualTo("kube-prometheus-stack");
        assertThat(monitor.path("metadata").path("namespace").asText()).as("beside the Service it scrapes")
                .isEqualTo(find(objects, "StatefulSet").path("metadata").path("namespace").asText()).isEqualTo("quotaflow");
        assertThat(objects.stream().filter(o -> o.path("kind").asText().equals("ServiceMonitor"))).hasSize(1);
    }

    // --- reading the manifests ---

    /** {@code deploy/kubernetes/<dir>} relative to {@code from} (kustomize takes no absolute paths). */
    private static String relative(Path from, String dir) {
        return from.toAbsolutePath().normalize().relativize(DEPLOY.resolve(dir).toAbsolutePath().normalize()).toString();
    }

    /** The base as written, and the example overlay as kubectl renders it when kubectl can. */
    private static List<List<JsonNode>> deployments() throws IOException {
        List<List<JsonNode>> all = new ArrayList<>();
        all.add(base());
        try {
            Path tmp = Files.createTempDirectory("kustomize");
            if (kubectlRenders(tmp)) {
                String rendered = kubectl(tmp, "kustomize", DEPLOY.resolve("overlays/example").toString());
                assertThat(rendered).as("kubectl kustomize overlays/example").isNotNull();
                all.add(read(rendered));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return all;
    }

    /**
     * Whether a kubectl that renders these kustomizations is installed: 1.21 or later (older ones
     * embed kustomize 2, which has no components; Debian 12's kubernetes-client is 1.20).
     */
    private static boolean kubectlRenders(Path tmp) throws IOException, InterruptedException {
        String version = kubectl(tmp, "version", "--client", "-o", "json");
        if (version == null) {
            return false;
        }
        JsonNode client = new ObjectMapper().readTree(version).path("clientVersion");
        String minor = client.path("minor").asText("0").replaceAll("\\D.*", "");
        return client.path("major").asInt() > 1 || !minor.isEmpty() && Integer.parseInt(minor) >= 21;
    }

    private static List<JsonNode> base() throws IOException {
        List<JsonNode> objects = new ArrayList<>();
        try (Stream<Path> files = Files.list(DEPLOY.resolve("base"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml") && !f.endsWith("kustomization.yaml")).sorted().toList()) {
                objects.addAll(read(Files.readString(file, StandardCharsets.UTF_8)));
            }
        }
        return objects;
    }

    private static List<Path> manifestFiles() throws IOException {
        try (Stream<Path> files = Files.walk(DEPLOY)) {
            return files.filter(f -> f.toString().endsWith(".yaml") && !f.endsWith("kustomization.yaml")).sorted().toList();
        }
    }

    private static List<JsonNode> read(String yaml) throws IOException {
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(new StringReader(yaml))) {
            return docs.readAll().stream().filter(d -> d != null && !d.isNull() && !d.isEmpty()).toList();
        }
    }

    /** {@code kubectl args...}'s output, or null when kubectl is missing or fails. */
    private static String kubectl(Path tmp, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(List.of(args));
        Path out = Files.createTempFile(tmp, "kubectl", ".out");
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        } catch (IOException missing) {
            return null;
        }
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return null;
        }
        String output = Files.readString(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            System.out.println("KubernetesManifestsTest: " + String.join(" ", command) + " failed: " + output);
            return null;
        }
        return output;
    }

    private static JsonNode find(List<JsonNode> objects, String kind) {
        return objects.stream().filter(o -> o.path("kind").asText().equals(kind)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in the manifests"));
    }

    private static JsonNode quotaflow(JsonNode pod) {
        for (JsonNode c : pod.path("containers")) {
            if (c.path("name").asText().equals("quotaflow")) {
                return c;
            }
        }
        throw new AssertionError("no container named quotaflow");
    }

    private static Map<String, String> env(JsonNode container) {
        Map<String, String> env = new LinkedHashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e.path("value").asText(null)));
        return env;
    }

    /** The name of the volume mounted at {@code path}. */
    private static String mountNamed(JsonNode container, String path) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (m.path("mountPath").asText().equals(path)) {
                return m.path("name").asText();
            }
        }
        throw new AssertionError("nothing is mounted at " + path);
    }

    /** The name of the volume {@code path} is on: the mount whose path is it or a parent of it, the deepest. */
    private static String mountHolding(JsonNode container, String path) {
        String best = null;
        int depth = -1;
        for (JsonNode m : container.path("volumeMounts")) {
            Path mount = Path.of(m.path("mountPath").asText());
            if (Path.of(path).startsWith(mount) && mount.getNameCount() > depth) {
                best = m.path("name").asText();
                depth = mount.getNameCount();
            }
        }
        assertThat(best).as("a volume holding " + path).isNotNull();
        return best;
    }

    /** The pod volume mounted at {@code path}. */
    private static JsonNode mountOf(JsonNode pod, JsonNode container, String path) {
        String name = mountNamed(container, path);
        for (JsonNode v : pod.path("volumes")) {
            if (v.path("name").asText().equals(name)) {
                return v;
            }
        }
        throw new AssertionError("no pod volume " + name + " (mounted at " + path + ")");
    }

    private static boolean selects(JsonNode matchLabels, JsonNode labels) {
        List<Boolean> all = new ArrayList<>();
        matchLabels.fields().forEachRemaining(e -> all.add(e.getValue().asText().equals(labels.path(e.getKey()).asText(null))));
        return !all.isEmpty() && !all.contains(false);
    }

    /** The properties file the ConfigMap mounts for {@code run --config}. */
    private static Properties configProperties(List<JsonNode> objects) throws IOException {
        Properties properties = new Properties();
        properties.load(new StringReader(configFile(objects)));
        return properties;
    }

    /** The text of the file {@code run --config} reads: the ConfigMap's entry mounted there. */
    private static String configFile(List<JsonNode> objects) {
        JsonNode pod = find(objects, "StatefulSet").path("spec").path("template").path("spec");
        JsonNode container = quotaflow(pod);
        List<String> args = new ArrayList<>();
        container.path("args").forEach(a -> args.add(a.asText()));
        assertThat(args).as("run --config FILE").contains("run", "--config");
        String file = args.get(args.indexOf("--config") + 1);
        String dir = file.substring(0, file.lastIndexOf('/'));
        String configMapName = mountOf(pod, container, dir).path("configMap").path("name").asText();
        JsonNode configMap = objects.stream().filter(o -> o.path("kind").asText().equals("ConfigMap")
                && o.path("metadata").path("name").asText().equals(configMapName)).findFirst()
                .orElseThrow(() -> new AssertionError("no ConfigMap " + configMapName + " (mounted at " + dir + ")"));
        String text = configMap.path("data").path(file.substring(dir.length() + 1)).asText(null);
        assertThat(text).as(configMapName + " holds " + file).isNotNull();
        return text;
    }

    /** A PEM file of a self-signed certificate for {@code variable} (the key's for the key, the certificate for the others). */
    private static String tlsFile(Path tmp, String variable) throws IOException {
        try {
            Path dir = tmp.resolve("tls");
            if (!Files.exists(dir.resolve("pod.crt"))) {
                io.quotaflow.settings.TestCertificates.generate(Files.createDirectories(dir), "pod", "EC");
            }
            return dir.resolve(variable.endsWith("KEY_FILE") ? "pod.key" : "pod.crt").toString();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    /**
     * The configuration a pod named {@code podName} in {@code namespace} starts with: the ConfigMap's
     * file, the container's environment as Kubernetes expands it, the Secret's files as placeholders.
     */
    private static QuotaflowConfig configOfPod(List<JsonNode> objects, JsonNode container, Path tmp, String podName, String namespace)
            throws IOException {
        Path properties = tmp.resolve("quotaflow.properties");
        Files.writeString(properties, configFile(objects), StandardCharsets.UTF_8);
        Map<String, String> env = new HashMap<>();
        env.put("POD_NAME", podName);
        env.put("POD_NAMESPACE", namespace);
        for (Map.Entry<String, String> e : env(container).entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            String value = e.getValue();
            for (Map.Entry<String, String> known : Map.copyOf(env).entrySet()) {
                value = value.replace("$(" + known.getKey() + ")", known.getValue());
            }
            if (e.getKey().startsWith("QUOTAFLOW_HTTP_TLS_")) {
                value = tlsFile(tmp, e.getKey());
            } else if (e.getKey().endsWith("_FILE")) {
                Path secret = tmp.resolve(e.getKey().toLowerCase());
                // the tokens file is TOKEN TENANT lines, every other secret file one value
                Files.writeString(secret, "placeholder-secret-0123456789abcdef" + (e.getKey().equals("QUOTAFLOW_HTTP_TOKENS_FILE") ? " acme" : "")
                        + "\n");
                value = secret.toString();
            }
            env.put(e.getKey(), value);
        }
        env.keySet().stream().filter(v -> v.startsWith(ConfigKeys.ENV_PREFIX))
                .forEach(v -> assertThat(ConfigKeys.isKnownVariable(v)).as(v + " is a quotaflow variable").isTrue());
        return ConfigLoader.load(properties, env, Map.of());
    }
}
