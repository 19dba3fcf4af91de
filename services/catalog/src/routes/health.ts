// GET / : liveness, with the size of the projection (what a load balancer and an operator check).

import type { Route } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';

export function healthRoutes(projection: CatalogProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/',
      handler: () => {
        const { state } = projection.view;
        return {
          body: {
            data: 'OK',
            events: state.events.size,
            markets: state.markets.size,
            series: state.series.size,
            tags: state.tags.size,
            comments: state.comments.size,
            profiles: state.profiles.size,
          },
        };
      },
    },
  ];
}
