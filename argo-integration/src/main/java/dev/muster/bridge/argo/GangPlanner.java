package dev.muster.bridge.argo;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.hash.Hashing;
import dev.muster.engine.model.Resources;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides a Workflow's gangs: each fan-out of a template annotated {@code muster.dev/gang: "true"}
 * becomes a PodGroup whose {@code minMember} is its number of members, or {@code muster.dev/min-available}
 * when that is smaller. A template with a bad annotation (a min-available that is not a positive
 * number, or a queue that does not exist) gets a problem instead and its fan-outs no group; so does a
 * fan-out smaller than its template's min-available. Its {@code minResources} are its template's pod request
 * ({@link ArgoTemplate.Leaf#podRequest}) times {@code minMember}, so the enqueue action weighs the gang
 * against its queue before any member is placed; Argo's own {@code init} and {@code wait} containers,
 * whose requests are the workflow controller's settings, are not counted. Pure: the same workflow,
 * templates and queues give the same plan.
 */
public final class GangPlanner {
    /** Longest PodGroup name made; Kubernetes allows 253, and names this long are still readable. */
    static final int MAX_NAME = 63;
    /** The queue the scheduler makes itself when it is missing, as Volcano does. */
    static final String DEFAULT_QUEUE = "default";
    private static final Pattern NOT_NAME = Pattern.compile("[^a-z0-9-]+");

    private GangPlanner() {}

    public static GangPlan plan(Workflow workflow, Set<String> queues) {
        return plan(workflow, queues, DagPlan.NONE);
    }

    /** The plan, each PodGroup carrying its fan-out's annotations of {@code dag}, without resources. */
    public static GangPlan plan(Workflow workflow, Set<String> queues, DagPlan dag) {
        return plan(workflow, queues, dag, Map.of());
    }

    /** The plan, each PodGroup carrying its fan-out's annotations of {@code dag} and its template's requests. */
    public static GangPlan plan(Workflow workflow, Set<String> queues, DagPlan dag, Map<String, ArgoTemplate> templates) {
        List<PodGroupSpec> podGroups = new ArrayList<>();
        Map<String, String> groups = new LinkedHashMap<>();
        Set<GangProblem> problems = new LinkedHashSet<>();
        for (FanOut fanOut : FanOuts.of(workflow)) {
            ImmutableMap<String, String> annotations = workflow.podAnnotations(fanOut.template());
            String gang = annotations.getOrDefault(GangAnnotations.GANG, "false");
            if (!gang.equals("true")) {
                if (!gang.equals("false")) {
                    problems.add(new GangProblem(fanOut.template(), GangAnnotations.GANG, "'" + gang + "' is neither \"true\" nor \"false\""));
                }
                continue;
            }
            List<GangProblem> templateProblems = new ArrayList<>();
            OptionalInt minAvailable = minAvailable(fanOut.template(), annotations, templateProblems);
            Optional<String> queue = Optional.ofNullable(annotations.get(GangAnnotations.QUEUE)).map(String::trim);
            if (queue.isPresent() && !queue.get().equals(DEFAULT_QUEUE) && !queues.contains(queue.get())) {
                templateProblems.add(new GangProblem(fanOut.template(), GangAnnotations.QUEUE, "queue '" + queue.get() + "' does not exist"));
            }
            int members = fanOut.members().size();
            if (minAvailable.isPresent() && minAvailable.getAsInt() > members) {
                templateProblems.add(new GangProblem(fanOut.template(), GangAnnotations.MIN_AVAILABLE, "'" + minAvailable.getAsInt()
                        + "' exceeds the " + members + " members of fan-out " + fanOut.groupNodeName()));
            }
            if (!templateProblems.isEmpty()) {
                problems.addAll(templateProblems);
                continue;
            }
            int minMember = minAvailable.orElse(members);
            PodGroupSpec podGroup = new PodGroupSpec(workflow.namespace(), name(fanOut), workflow.name(), workflow.uid(),
                    fanOut.groupNodeId(), fanOut.template(), minMember, podRequest(templates, fanOut.template()).multiply(minMember), queue,
                    Optional.ofNullable(annotations.get(GangAnnotations.PRIORITY_CLASS)).map(String::trim).filter(name -> !name.isEmpty()),
                    dag.forFanOut(fanOut));
            podGroups.add(podGroup);
            fanOut.podNodeIds().forEach(pod -> groups.put(pod, podGroup.name()));
        }
        return new GangPlan(workflow.key(), ImmutableList.copyOf(podGroups), ImmutableMap.copyOf(groups),
                workflow.nodes().keySet(), ImmutableList.copyOf(problems));
    }

    /** What one pod of the template asks for; nothing for a template not read (a {@code templateRef}'s) or not a leaf. */
    private static Resources podRequest(Map<String, ArgoTemplate> templates, String template) {
        return Optional.ofNullable(templates.get(template)).map(ArgoTemplate::body)
                .filter(ArgoTemplate.Leaf.class::isInstance).map(body -> ((ArgoTemplate.Leaf) body).podRequest())
                .orElse(Resources.EMPTY);
    }

    private static OptionalInt minAvailable(String template, Map<String, String> annotations, List<GangProblem> problems) {
        String text = annotations.get(GangAnnotations.MIN_AVAILABLE);
        if (text == null) {
            return OptionalInt.empty();
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value > 0) {
                return OptionalInt.of(value);
            }
        } catch (NumberFormatException e) {
            problems.add(new GangProblem(template, GangAnnotations.MIN_AVAILABLE, "'" + text + "' is not a number"));
            return OptionalInt.empty();
        }
        problems.add(new GangProblem(template, GangAnnotations.MIN_AVAILABLE, "'" + text + "' is not a positive number"));
        return OptionalInt.empty();
    }

    /**
     * {@code <group node id>-<template>}: Argo's node ids start with the workflow's name and are unique
     * in it. A name that had to be changed to be a valid object name, or shortened, ends in a hash of
     * the original, so two fan-outs never share a group.
     */
    static String name(FanOut fanOut) {
        String wanted = fanOut.groupNodeId() + "-" + fanOut.template();
        String valid = NOT_NAME.matcher(wanted.toLowerCase(Locale.ROOT)).replaceAll("-");
        if (valid.equals(wanted) && wanted.length() <= MAX_NAME) {
            return wanted;
        }
        String hash = Hashing.sha256().hashString(wanted, UTF_8).toString().substring(0, 10);
        String prefix = valid.substring(0, Math.min(valid.length(), MAX_NAME - hash.length() - 1)).replaceAll("^-+|-+$", "");
        return prefix + "-" + hash;
    }
}
