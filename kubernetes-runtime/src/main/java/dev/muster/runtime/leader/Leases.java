package dev.muster.runtime.leader;

import static java.util.Objects.requireNonNull;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Optional;

/** Reads and writes one Lease; every write is conditional on the version read. */
final class Leases {
    private static final int CONFLICT = 409;

    private final KubernetesClient client;
    private final String namespace;
    private final String name;

    Leases(KubernetesClient client, String namespace, String name) {
        this.client = requireNonNull(client, "client is null");
        this.namespace = requireNonNull(namespace, "namespace is null");
        this.name = requireNonNull(name, "name is null");
    }

    String describe() {
        return namespace + "/" + name;
    }

    /** The lease, or empty when it does not exist yet. */
    Optional<LeaseRecord> get() {
        Lease lease = client.leases().inNamespace(namespace).withName(name).get();
        if (lease == null) {
            return Optional.empty();
        }
        LeaseSpec spec = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
        Optional<String> holder = Optional.ofNullable(spec.getHolderIdentity()).filter(text -> !text.isEmpty());
        return Optional.of(new LeaseRecord(
                holder,
                Duration.ofSeconds(spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds()),
                instant(spec.getAcquireTime()),
                instant(spec.getRenewTime()),
                spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions(),
                lease.getMetadata().getResourceVersion() == null ? "" : lease.getMetadata().getResourceVersion()));
    }

    /** Creates the lease; false when someone else created it first. */
    boolean create(LeaseRecord record) {
        try {
            client.leases().inNamespace(namespace).resource(lease(record, null)).create();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == CONFLICT) {
                return false;
            }
            throw e;
        }
    }

    /** Replaces the lease if it is still at {@code previous}'s version; false when someone wrote in between. */
    boolean update(LeaseRecord previous, LeaseRecord next) {
        try {
            client.leases().inNamespace(namespace).resource(lease(next, previous.resourceVersion())).update();
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == CONFLICT) {
                return false;
            }
            throw e;
        }
    }

    private Lease lease(LeaseRecord record, String resourceVersion) {
        return new LeaseBuilder()
                .withNewMetadata()
                .withNamespace(namespace)
                .withName(name)
                .withResourceVersion(resourceVersion)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity(record.holder().orElse(null))
                .withLeaseDurationSeconds(Math.toIntExact(record.leaseDuration().toSeconds()))
                .withAcquireTime(ZonedDateTime.ofInstant(record.acquired(), ZoneOffset.UTC))
                .withRenewTime(ZonedDateTime.ofInstant(record.renewed(), ZoneOffset.UTC))
                .withLeaseTransitions(record.transitions())
                .endSpec()
                .build();
    }

    private static Instant instant(ZonedDateTime time) {
        return time == null ? Instant.EPOCH : time.toInstant();
    }
}
