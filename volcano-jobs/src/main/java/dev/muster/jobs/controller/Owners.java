package dev.muster.jobs.controller;

import dev.muster.jobs.VolcanoJob;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;

/** Controller owner references, so that deleting the owner deletes what the controller made for it. */
public final class Owners {
    private Owners() {}

    public static OwnerReference controllerOf(VolcanoJob job) {
        return controller(VolcanoJob.API_VERSION, VolcanoJob.KIND, job.name(), job.metadata().uid());
    }

    public static OwnerReference controller(String apiVersion, String kind, String name, String uid) {
        return new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName(name).withUid(uid)
                .withController(true).withBlockOwnerDeletion(true).build();
    }
}
