/** `GET /v1.0/usage` (docs/http-api.md "Usage"), also addressed as `/v1/usage` in the interface's client samples. */
import type { FastifyInstance } from 'fastify';
import { accountOf } from '../bearer-auth.js';
import type { RouteContext } from '../route-context.js';

export function registerUsageRoutes(app: FastifyInstance, { service }: RouteContext): void {
  for (const path of ['/v1.0/usage', '/v1/usage']) {
    app.get(
      path,
      { config: { endpoint: 'usage', bearer: true, rateLimited: true, noStore: true } },
      async (request) => {
        const usage = await service.usage(accountOf(request));
        return {
          result: {
            usedSlideCount: usage.usedSlideCount,
            plan: usage.plan,
            allowedSlideCount: usage.allowedSlideCount,
            subscriptions: usage.subscriptions,
            resetDate: usage.resetDate,
            totalApiCallCount: usage.totalApiCallCount,
            successfulApiCallCount: usage.successfulApiCallCount,
            failedApiCallCount: usage.failedApiCallCount,
            previousMonthUsedSlideCount: usage.previousMonthUsedSlideCount,
            subscriptionStartDate: usage.subscriptionStartDate,
          },
          isSuccess: true,
          message: null,
          fileName: null,
          fileNameFullPath: null,
          isValidJson: false,
          resultType: 0,
        };
      },
    );
  }
}
