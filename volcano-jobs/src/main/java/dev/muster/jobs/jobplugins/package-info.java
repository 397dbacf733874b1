/**
 * Volcano's job plugins ({@code spec.plugins}): what each adds to the pods of a job and the objects it
 * makes for the job. {@code svc}: a headless Service and the hosts ConfigMap; {@code ssh}: a key pair
 * in a Secret mounted in every pod; {@code env}: task indexes; {@code tensorflow}: {@code TF_CONFIG};
 * {@code pytorch}: {@code MASTER_ADDR}, {@code MASTER_PORT}, {@code WORLD_SIZE}, {@code RANK}.
 * Arguments are Go-style flags, as Volcano parses them; an unknown flag is a problem, not a log line.
 */
package dev.muster.jobs.jobplugins;
