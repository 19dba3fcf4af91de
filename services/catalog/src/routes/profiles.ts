// GET /public-profile?address= : a profile by its proxy wallet or its base (signer) address.

import { ADDRESS_HEX } from '@pmx/codec';
import { HttpError, type Route } from '@pmx/http';
import type { CatalogProjection } from '../projection/catalog-projection.ts';
import * as params from './query-params.ts';

export function profileRoutes(projection: CatalogProjection): Route[] {
  return [
    {
      method: 'GET',
      path: '/public-profile',
      handler: (ctx) => {
        const address = params.required(ctx.query, 'address');
        if (!ADDRESS_HEX.test(address)) throw new HttpError(400, 'address must be a 0x-prefixed 20-byte hex address');
        const { state, render } = projection.view;
        const profile = state.profileByAddress(address.toLowerCase());
        if (profile === undefined) throw new HttpError(404, 'id not found');
        return { body: render.publicProfile(profile) };
      },
    },
  ];
}
