package io.quotaflow.admin;

import io.quotaflow.settings.TenantAccess;
import io.quotaflow.settings.TopicNames;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The Kafka ACLs that bind each tenant's input topics to its producer under {@code tenants.from=principal}
 * (docs/operations.md, "Tenants and access", "Producers"): {@code tenant.<name>.principal} gets {@code Write} and
 * {@code Describe} on the tenant's three literal topics {@code <prefix>tickets.<tenant>.<priority>} and
 * {@code IdempotentWrite} on the cluster (idempotent producers need it), from any host. Nothing on the shared
 * priority topics nor on the retry topic: those stay the application's. The kafka-acls commands in the docs are
 * these bindings.
 */
public final class TenantAcls {

    /** The name of the cluster resource of an ACL (Kafka's own constant). */
    static final String CLUSTER = "kafka-cluster";

    private TenantAcls() {
    }

    /**
     * Each tenant's ACL bindings, by tenant, in tenant order; empty unless {@code tenants.from=principal}.
     *
     * @param access the tenants and their principals
     * @param names  the topic names ({@code topics.prefix})
     */
    public static Map<String, List<AclBinding>> bindings(TenantAccess access, TopicNames names) {
        Map<String, List<AclBinding>> out = new TreeMap<>();
        if (access.from() != TenantAccess.From.PRINCIPAL) {
            return Collections.unmodifiableMap(out);
        }
        access.topics(names).forEach((topic, owner) -> access.principal(owner.tenant()).ifPresent(principal -> {
            List<AclBinding> list = out.computeIfAbsent(owner.tenant(), t -> new ArrayList<>());
            list.add(allow(principal, new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), AclOperation.WRITE));
            list.add(allow(principal, new ResourcePattern(ResourceType.TOPIC, topic, PatternType.LITERAL), AclOperation.DESCRIBE));
        }));
        out.forEach((tenant, list) -> list.add(allow(access.principal(tenant).orElseThrow(),
                new ResourcePattern(ResourceType.CLUSTER, CLUSTER, PatternType.LITERAL), AclOperation.IDEMPOTENT_WRITE)));
        out.replaceAll((tenant, list) -> List.copyOf(list));
        return Collections.unmodifiableMap(out);
    }

    /** Every tenant's bindings in one list, for {@code Admin.createAcls}. */
    public static List<AclBinding> all(TenantAccess access, TopicNames names) {
        return bindings(access, names).values().stream().flatMap(List::stream).toList();
    }

    /**
     * The {@code kafka-acls.sh} commands that create {@link #bindings}: per tenant, one for its topics and one for the
     * cluster; {@code $BROKER} stands for the bootstrap servers.
     */
    public static List<String> commands(TenantAccess access, TopicNames names) {
        List<String> out = new ArrayList<>();
        bindings(access, names).forEach((tenant, list) -> {
            String principal = access.principal(tenant).orElseThrow();
            StringBuilder topics = new StringBuilder();
            list.stream().filter(b -> b.pattern().resourceType() == ResourceType.TOPIC).map(b -> b.pattern().name()).distinct()
                    .forEach(t -> topics.append(" --topic ").append(t));
            out.add("kafka-acls.sh --bootstrap-server $BROKER --add --allow-principal " + principal
                    + " --operation Write --operation Describe" + topics);
            out.add("kafka-acls.sh --bootstrap-server $BROKER --add --allow-principal " + principal
                    + " --operation IdempotentWrite --cluster");
        });
        return List.copyOf(out);
    }

    private static AclBinding allow(String principal, ResourcePattern pattern, AclOperation operation) {
        return new AclBinding(pattern, new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }
}
